// The reader's side of `COMMAND serve` (voxrig/conform/serve.h): one request line in, one answer
// line out, until EOF.
#include <istream>
#include <nlohmann/json.hpp>
#include <ostream>

#include "voxrig/conform/serve.h"

namespace voxrig::conform {
namespace {

using Json = nlohmann::json;

// The args of a request object (op first), or "" in `why` with the problem.
std::vector<std::string> request_args(const Json& j, std::string& why) {
  std::vector<std::string> args;
  auto op = j.find("op");
  if (op == j.end() || !op->is_string()) {
    why = "the request has no string \"op\"";
    return args;
  }
  args.push_back(op->get<std::string>());
  auto a = j.find("args");
  if (a == j.end()) return args;
  if (!a->is_array()) {
    why = "\"args\" is not an array of strings";
    return {};
  }
  for (const auto& v : *a) {
    if (!v.is_string()) {
      why = "\"args\" is not an array of strings";
      return {};
    }
    args.push_back(v.get<std::string>());
  }
  return args;
}

}  // namespace

int serve_loop(std::istream& in, std::ostream& out, const std::vector<std::string>& ops,
               const std::vector<std::string>& profiles, const ServeHandler& handler) {
  std::string line;
  while (std::getline(in, line)) {
    Json answer;
    Json j = Json::parse(line, nullptr, false);
    std::string why;
    std::vector<std::string> args;
    if (!j.is_object())
      why = "the request is not one JSON object";
    else
      args = request_args(j, why);
    const Json id = j.is_object() && j.contains("id") ? j["id"] : Json(nullptr);
    if (!why.empty()) {
      answer = {{"id", id}, {"exit", 2}, {"stdout", ""}, {"stderr", "serve: " + why + "\n"}};
    } else if (args[0] == "hello") {
      answer = {{"id", id}, {"protocol", std::string(kServeProtocol)}, {"ops", ops},
                {"profiles", profiles}};
    } else {
      ServeAnswer a = handler(args);
      answer = {{"id", id}, {"exit", a.exit}, {"stdout", std::move(a.out)}};
      if (!a.err.empty()) answer["stderr"] = std::move(a.err);
    }
    // Invalid UTF-8 in a reader's output is replaced rather than thrown on.
    out << answer.dump(-1, ' ', false, Json::error_handler_t::replace) << '\n' << std::flush;
    if (!out) return 3;
  }
  return 0;
}

}  // namespace voxrig::conform
