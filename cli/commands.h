// Every voxrig subcommand: fn(argc, argv) with argv[1] the subcommand name; returns an Exit.
#pragma once

namespace voxrig::cli {

int cmd_compile(int argc, char** argv);
int cmd_dump(int argc, char** argv);
int cmd_validate(int argc, char** argv);
int cmd_roundtrip(int argc, char** argv);
int cmd_canonicalize(int argc, char** argv);
int cmd_limits(int argc, char** argv);
int cmd_errors(int argc, char** argv);
int cmd_conform(int argc, char** argv);
int cmd_golden(int argc, char** argv);
int cmd_gen(int argc, char** argv);
int cmd_mesh(int argc, char** argv);
int cmd_pose(int argc, char** argv);
int cmd_export_gltf(int argc, char** argv);

}  // namespace voxrig::cli
