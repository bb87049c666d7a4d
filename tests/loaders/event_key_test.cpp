// ClassifyEventKey (loaders/chrome_json/event_key.h): the 16 members the
// tokenizer reads, found by a perfect hash. Every known key maps to its
// member and every other string to kOther: the keys with any byte changed,
// cut, extended or padded with NULs, and every short string over the keys'
// letters. ClassifyEventKeyIn, the fast scanner's form that loads 8 bytes at
// once, answers the same for each, whatever bytes follow the key; so does
// MatchKnownMember, which reads a whole `"key":`, where it answers.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "loaders/chrome_json/event_key.h"

namespace stepline::loaders {
namespace {

const std::map<std::string, EventKey>& KnownKeys() {
  static const std::map<std::string, EventKey> keys = {
      {"ph", EventKey::kPh},     {"ts", EventKey::kTs},       {"dur", EventKey::kDur},
      {"pid", EventKey::kPid},   {"tid", EventKey::kTid},     {"name", EventKey::kName},
      {"cat", EventKey::kCat},   {"args", EventKey::kArgs},   {"id", EventKey::kId},
      {"id2", EventKey::kId2},   {"bind_id", EventKey::kBindId}, {"bp", EventKey::kBp},
      {"scope", EventKey::kScope}, {"s", EventKey::kS},       {"flow_in", EventKey::kFlowIn},
      {"flow_out", EventKey::kFlowOut}};
  return keys;
}

EventKey Expected(const std::string& key) {
  const auto it = KnownKeys().find(key);
  return it == KnownKeys().end() ? EventKey::kOther : it->second;
}

// ClassifyEventKey's answer, checked against ClassifyEventKeyIn's for the
// key inside a buffer (followed by a quote and bytes that look like another
// key, so a mask that kept one byte too many would show) and at the very end
// of one (fewer than 8 readable bytes: the byte loop).
EventKey Classify(const std::string& key) {
  const EventKey answer = ClassifyEventKey(key);
  const std::string buffer = key + "\"ph\":\"X\",\"ts";
  EXPECT_EQ(ClassifyEventKeyIn(std::string_view(buffer).substr(0, key.size()), buffer.data() + buffer.size()), answer)
      << key;
  EXPECT_EQ(ClassifyEventKeyIn(key, key.data() + key.size()), answer) << key;
  // MatchKnownMember reads the whole `"key":` and agrees wherever it answers:
  // every known key whose `"key":` fits in 8 bytes, and nothing else.
  const size_t member_bytes = key.size() + 3;
  const bool matchable = answer != EventKey::kOther && member_bytes <= 8;
  EventKey matched = EventKey::kOther;
  const std::string member = "\"" + key + "\":\"X\",\"ts\":1}";
  EXPECT_EQ(MatchKnownMember(member.data(), &matched), matchable ? member_bytes : 0) << key;
  if (matchable) {
    EXPECT_EQ(matched, answer) << key;
  }
  const std::string spaced = "\"" + key + "\" :1,\"ts\":1}";  // a space before the colon: the generic path's
  EXPECT_EQ(MatchKnownMember(spaced.data(), &matched), 0u) << key;
  const std::string unclosed = "\"" + key + "x\":1,\"ts\":1}";
  if (Expected(key + "x") == EventKey::kOther) {
    EXPECT_EQ(MatchKnownMember(unclosed.data(), &matched), 0u) << key;
  }
  return answer;
}

TEST(EventKeyTest, KnownKeysAndEveryOneByteChange) {
  for (const auto& [text, member] : KnownKeys()) {
    ASSERT_EQ(Classify(text), member) << text;
    for (size_t at = 0; at < text.size(); ++at) {
      for (int byte = 0; byte < 256; ++byte) {
        std::string changed = text;
        changed[at] = static_cast<char>(byte);
        ASSERT_EQ(Classify(changed), Expected(changed)) << text << " byte " << at << " = " << byte;
      }
    }
    for (int byte = 0; byte < 256; ++byte) {
      const std::string longer = text + static_cast<char>(byte), earlier = static_cast<char>(byte) + text;
      ASSERT_EQ(Classify(longer), Expected(longer)) << text << " + " << byte;
      ASSERT_EQ(Classify(earlier), Expected(earlier)) << byte << " + " << text;
    }
    ASSERT_EQ(Classify(text.substr(0, text.size() - 1)), Expected(text.substr(0, text.size() - 1)));
    ASSERT_EQ(Classify(text + std::string(1, '\0')), EventKey::kOther) << text;  // from an escape
  }
  EXPECT_EQ(Classify(""), EventKey::kOther);
  EXPECT_EQ(Classify("flow_outs"), EventKey::kOther);  // 9 bytes
}

TEST(EventKeyTest, EveryShortStringOverTheKeysLetters) {
  const std::string letters = std::string("abcdefghilmnoprstuw_2") + '\0';
  std::string s;
  for (char a : letters) {
    for (char b : letters) {
      for (char c : letters) {
        for (size_t n = 1; n <= 3; ++n) {
          s = std::string{a, b, c}.substr(0, n);
          ASSERT_EQ(Classify(s), Expected(s)) << s;
        }
      }
    }
  }
}

}  // namespace
}  // namespace stepline::loaders
