// Fuzz target: RKCH skeletal clip evaluation (rkc_eval.h; docs/spec/rkc-evaluation.md, docs/spec/rkc-evaluation.md#D21). The
// input is read as hinges, a skeletal clip with an arbitrary seq (frames, jumps, stop markers,
// unsorted or extreme times), a start clock and clock advances (fuzz_common.h read_rkc_rig).
// Invariants: a well-formed skeleton builds; kfatime2seq stays inside the seq; RkcClipJob::run()
// fails exactly when validate() does, with the same code (D21: bad frame indices and jump targets
// are rejected before run); huge advances finish (closed-form loops, wrapping i32 clock: a hang
// is a libFuzzer timeout); RkcHingeJob runs on every built rig; no UB (sanitizers).
#include "fuzz_common.h"
#include "voxrig/rkc_eval.h"

using namespace voxrig;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Picker in{{data, size}};
  const fuzz::RkcInput r = fuzz::read_rkc_rig(in);
  auto rig = RkcRig::build(r.hinges);
  VOXRIG_FUZZ_CHECK(rig.ok() || r.wild, rig.ok() ? "" : rig.error().to_text());
  if (!fuzz::ok_or_checked(rig, 0, 0)) return 0;
  VOXRIG_FUZZ_CHECK(rig.value().parent_first_order().size() == r.hinges.size());
  for (const Seq& s : r.clip.seq)
    VOXRIG_FUZZ_CHECK(kfatime2seq(r.clip.seq, s.tim) < r.clip.seq.size());
  std::vector<BoneXform> kfaval(r.hinges.size());
  std::vector<Mat4> world(r.hinges.size());
  RkcClock clock{r.kfatim, r.okfatim};
  for (int32_t advance : r.advances) {
    RkcClipJob job{&rig.value(), &r.clip, advance, &clock, kfaval};
    const Status v = job.validate();
    const Status run = job.run();
    VOXRIG_FUZZ_CHECK(v.ok() == run.ok(), "validate() and run() disagree");
    if (!v.ok()) {
      fuzz::check_error(v.error(), 0, UINT32_MAX);
      VOXRIG_FUZZ_CHECK(v.error().code == run.error().code);
      VOXRIG_FUZZ_CHECK(v.error().code != ErrorCode::EvalBadArgument &&
                            v.error().code != ErrorCode::EvalBufferSize,
                        v.error().to_text());
      break;
    }
    VOXRIG_FUZZ_CHECK((RkcHingeJob{&rig.value(), kfaval, {}, world}.run().ok()));
  }
  return 0;
}
