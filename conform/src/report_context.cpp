// What a failure report says beyond the verdict: the case's rules, spec section and file, and a
// short hex context around the offset that matters (docs/spec/conventions.md#D12: offsets are context, never
// compared).
#include <algorithm>
#include <nlohmann/json.hpp>

#include "voxrig/conform/conform.h"

namespace voxrig::conform {
namespace {

constexpr size_t kHexWindow = 16;
constexpr size_t kOutputHead = 1024;

std::string hex_u32(uint64_t v, int digits) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(size_t(digits), '0');
  for (int i = digits - 1; i >= 0 && v; --i, v >>= 4) out[size_t(i)] = kDigits[v & 15];
  return out;
}

// The "offset" a reader printed in its rejection ({"error": ..., "offset": N}), or -1. The text
// is untrusted: parsed only when it is small, never thrown out of.
int64_t printed_offset(std::string_view out) {
  if (out.size() > 4096 || !rejection_code(out)) return -1;
  const auto j = nlohmann::json::parse(out.begin(), out.end(), nullptr, false);
  if (!j.is_object()) return -1;
  auto it = j.find("offset");
  if (it == j.end() || !it->is_number_unsigned()) return -1;
  const uint64_t v = it->get<uint64_t>();
  return v > uint64_t(INT64_MAX) ? -1 : int64_t(v);
}

}  // namespace

namespace {

// The rules of a case as reports show them: those enforcing `code` (the expected reject code,
// "" for an accept) first, as they name the section, then the other broken ones, then the obeyed.
void describe_rules(CaseResult& r, const std::vector<RuleRef>& rules, const std::string& code,
                    const RuleCatalogue* catalogue) {
  r.rules.clear();
  auto enforces = [&](const RuleRef& ref) {
    const Rule* rule = catalogue ? catalogue->find(ref.id) : nullptr;
    if (!rule || code.empty() || ref.relation != RuleRelation::Breaks) return false;
    return std::find(rule->codes.begin(), rule->codes.end(), code) != rule->codes.end();
  };
  for (int pass = 0; pass < 3; ++pass)
    for (const RuleRef& ref : rules) {
      const bool first = enforces(ref);
      if ((pass == 0) != first) continue;
      if (pass == 1 && ref.relation != RuleRelation::Breaks) continue;
      if (pass == 2 && ref.relation != RuleRelation::Obeys) continue;
      RuleNote n{ref.id, ref.relation, "", ""};
      if (const Rule* rule = catalogue ? catalogue->find(ref.id) : nullptr) {
        n.summary = rule->summary;
        n.section = RuleCatalogue::where(*rule);
      }
      r.rules.push_back(std::move(n));
    }
  r.section.clear();
  for (const RuleNote& n : r.rules)
    if (!n.section.empty()) {
      r.section = n.section;
      break;
    }
}

}  // namespace

void describe_case(CaseResult& r, const ManifestCase& c, const ManifestExpect* e,
                   const RuleCatalogue* catalogue) {
  r.path = c.path;
  describe_rules(r, c.rules, e && !e->accept ? e->error : "", catalogue);
}

void describe_case(CaseResult& r, const CapabilityCase& c, const RuleCatalogue* catalogue) {
  r.capability = std::string(to_string(c.check));
  r.path = c.path;
  describe_rules(r, c.rules, c.accept ? "" : c.error, catalogue);
}

int64_t context_offset(const ManifestCase& c, const ManifestExpect& e,
                       std::string_view reader_stdout) {
  if (!e.accept && e.offset >= 0) return e.offset;
  if (const int64_t printed = printed_offset(reader_stdout); printed >= 0) return printed;
  return c.mutation_offset;
}

std::string hex_context(std::span<const uint8_t> bytes, uint64_t offset) {
  const uint64_t size = bytes.size();
  uint64_t start = offset > kHexWindow / 2 ? offset - kHexWindow / 2 : 0;
  if (start + kHexWindow > size) start = size > kHexWindow ? size - kHexWindow : 0;
  if (offset > size) offset = size;  // past the end: mark EOF
  const uint64_t end = std::min<uint64_t>(size, start + kHexWindow);
  std::string hex = "0x" + hex_u32(start, 8) + " ", text;
  for (uint64_t i = start; i < end; ++i) {
    const uint8_t b = bytes[size_t(i)];
    hex += i == offset ? " [" + hex_u32(b, 2) + "]" : " " + hex_u32(b, 2);
    text += (b >= 0x20 && b < 0x7f) ? char(b) : '.';
  }
  if (offset == size) hex += " [EOF]";
  return hex + "  |" + text + "|  (offset " + std::to_string(offset) + " of " +
         std::to_string(size) + ")";
}

void add_failure_context(CaseResult& r, const ManifestCase& c, const ManifestExpect& e,
                         const RunOutcome& run, std::span<const uint8_t> bytes) {
  if (r.verdict == Verdict::Pass || r.verdict == Verdict::Loose) return;
  r.offset = r.check == Check::Dump ? context_offset(c, e, run.out) : -1;
  if (r.offset >= 0) r.hex_context = hex_context(bytes, uint64_t(r.offset));
  r.output_head = run.out.substr(0, kOutputHead);
}

}  // namespace voxrig::conform
