//===--- ProjectIndexTest.cpp - the project index: format, merge, use -----===//
//
// The format round-trips every field; a merge counts a call site that
// several TUs see (a header's) once, keeps every definition and
// declaration, and agrees on a hook only when every body does; a file that
// is not JSON, not an index, of another version or with a field of the
// wrong type is an error naming the file and the field. Then the checks
// reading an index (option ProjectIndex): heat from other files, counted
// once with the TU's own; facts about parameters; AssumeNoWrap; a hook
// whose body is in another file.
//
//===----------------------------------------------------------------------===//

#include "checks/CheckSplitCheck.h"
#include "checks/HookGateCheck.h"
#include "TestHelpers.h"
#include "index/ProjectIndex.h"
#include "support/AtomicFile.h"
#include "gtest/gtest.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace hotpath;
using namespace hotpath::index;
using hotpath::test::CheckTester;
using hotpath::test::Diag;
using hotpath::test::RunResult;
using Options = std::map<std::string, std::string>;

namespace {

CallSite site(std::string File, unsigned Line, std::string Caller, bool Loop = false,
              std::string Accessor = "") {
  CallSite C;
  C.Loc = {std::move(File), Line, 9};
  C.Caller = std::move(Caller);
  C.InLoop = Loop;
  C.Accessor = std::move(Accessor);
  return C;
}

IndexFile sampleShard() {
  IndexFile F;
  F.K = IndexFile::Kind::Shard;
  F.TUs = {"/p/src/main.c"};
  ShardKey K;
  K.Command = "0123456789abcdef0123456789abcdef";
  K.Inputs = {{"/p/src/main.c", 120, 1700000000123456789, "aa"},
              {"/p/include/buf.h", 40, 1700000000000000001, "bb"}};
  F.Key = K;
  F.Errors = 2;
  Function Fn;
  Fn.USR = "c:@F@check_len";
  Fn.Name = "check_len";
  Fn.Definitions = {{{"/p/src/check.c", 5, 6}, 17, "/p/src/check.c"}};
  Fn.Declarations = {{"/p/include/buf.h", 3, 6}};
  Fn.AddressTaken = true;
  CallSite C = site("/p/src/main.c", 16, "main", true, "DEFINE_GET");
  C.Count = 3;
  C.Macros = {"ASSERT", "DEFINE_GET"};
  C.ConstantArgs = {{1, -4}, {2, 8}};
  Fn.Calls = {C};
  Function Hook;
  Hook.USR = "c:@F@should_fail";
  Hook.Name = "should_fail";
  Hook.Definitions = {{{"/p/src/fault.c", 3, 5}, 7, "/p/src/fault.c"}};
  HookShape H;
  H.Shape = HookShape::Kind::Switch;
  H.Disabled = "0";
  H.Switch = "fault_on && cfg.level > 2";
  H.Globals = {"fault_on", "cfg"};
  H.Marker = "noinline";
  Hook.Hook = H;
  F.Functions = {Fn, Hook};
  return F;
}

std::string errorOf(llvm::StringRef Json, llvm::StringRef Name = "idx.json") {
  llvm::Expected<IndexFile> F = parseIndexFile(Json, Name);
  if (F)
    return "(parsed)";
  return llvm::toString(F.takeError());
}

TEST(ProjectIndexFormat, EveryFieldRoundTrips) {
  IndexFile F = sampleShard();
  std::string Json = toJSON(F);
  llvm::Expected<IndexFile> Back = parseIndexFile(Json, "shard.json");
  ASSERT_TRUE(static_cast<bool>(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(toJSON(*Back), Json);
  EXPECT_EQ(Back->K, IndexFile::Kind::Shard);
  EXPECT_EQ(Back->TUs, F.TUs);
  ASSERT_TRUE(Back->Key.has_value());
  EXPECT_EQ(Back->Key->Command, F.Key->Command);
  EXPECT_EQ(Back->Key->Inputs, F.Key->Inputs);
  EXPECT_EQ(Back->Errors, 2u);
  ASSERT_EQ(Back->Functions.size(), 2u);
  const Function &Fn = Back->Functions[0];
  EXPECT_EQ(Fn.USR, "c:@F@check_len");
  EXPECT_EQ(Fn.Definitions[0].Loc, (Location{"/p/src/check.c", 5, 6}));
  EXPECT_EQ(Fn.Definitions[0].EndLine, 17u);
  EXPECT_EQ(Fn.Definitions[0].TU, "/p/src/check.c");
  EXPECT_EQ(Fn.Declarations, (std::vector<Location>{{"/p/include/buf.h", 3, 6}}));
  EXPECT_TRUE(Fn.AddressTaken);
  ASSERT_EQ(Fn.Calls.size(), 1u);
  EXPECT_EQ(Fn.Calls[0].key(), F.Functions[0].Calls[0].key());
  EXPECT_EQ(Fn.Calls[0].Count, 3u);
  EXPECT_TRUE(Fn.Calls[0].InLoop);
  EXPECT_EQ(Fn.Calls[0].Accessor, "DEFINE_GET");
  EXPECT_EQ(Fn.Calls[0].Macros, (std::vector<std::string>{"ASSERT", "DEFINE_GET"}));
  EXPECT_EQ(Fn.Calls[0].ConstantArgs, (std::vector<std::pair<unsigned, int64_t>>{{1, -4}, {2, 8}}));
  ASSERT_TRUE(Back->Functions[1].Hook.has_value());
  EXPECT_TRUE(*Back->Functions[1].Hook == *F.Functions[1].Hook);
  // The file names are a table: each path once.
  EXPECT_EQ(llvm::StringRef(Json).count("\"/p/src/main.c\""), 1u);
}

TEST(ProjectIndexFormat, WrittenAtomicallyAndReadBack) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("hotpath-index-test", Dir));
  std::string Path = (Dir + "/shard.json").str();
  ASSERT_FALSE(static_cast<bool>(writeIndexFile(Path, sampleShard())));
  llvm::Expected<IndexFile> Back = readIndexFile(Path);
  ASSERT_TRUE(static_cast<bool>(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(toJSON(*Back), toJSON(sampleShard()));
  std::error_code EC;
  unsigned Files = 0;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC))
    ++Files;
  EXPECT_EQ(Files, 1u) << "no temporary file left behind";
  llvm::sys::fs::remove_directories(Dir);
}

TEST(ProjectIndexMerge, HeaderCallSitesCountOnceDefinitionsAndDeclarationsUnite) {
  // Two TUs compile the same inline caller in a header: both see its call.
  auto Shard = [](std::string TU, std::vector<CallSite> Calls) {
    IndexFile S;
    S.TUs = {TU};
    Function Fn;
    Fn.USR = "c:@F@check_len";
    Fn.Name = "check_len";
    Fn.Declarations = {{"/p/include/buf.h", 3, 6}};
    Fn.Calls = std::move(Calls);
    S.Functions = {Fn};
    return S;
  };
  CallSite Header = site("/p/include/inl.h", 4, "get_inl", true);
  Header.Count = 2; // two calls the same expansion writes alike
  IndexFile A = Shard("/p/src/a.c", {Header, site("/p/src/a.c", 10, "fa")});
  IndexFile B = Shard("/p/src/b.c", {Header, site("/p/src/b.c", 20, "fb")});
  B.Functions[0].Definitions = {{{"/p/src/b.c", 30, 6}, 40, "/p/src/b.c"}};
  B.Functions[0].NotHook = true;
  IndexFile M = mergeShards({A, B});
  EXPECT_EQ(M.K, IndexFile::Kind::Index);
  EXPECT_EQ(M.TUs, (std::vector<std::string>{"/p/src/a.c", "/p/src/b.c"}));
  ASSERT_EQ(M.Functions.size(), 1u);
  const Function &Fn = M.Functions[0];
  ASSERT_EQ(Fn.Calls.size(), 3u);
  EXPECT_EQ(Fn.Calls[0].Loc.File, "/p/include/inl.h");
  EXPECT_EQ(Fn.Calls[0].Count, 2u) << "the larger count of the TUs, not their sum";
  EXPECT_EQ(Fn.Declarations.size(), 1u);
  EXPECT_EQ(Fn.Definitions.size(), 1u);
  EXPECT_FALSE(Fn.Hook.has_value());
  // Merging is order-independent.
  EXPECT_EQ(toJSON(mergeShards({B, A})), toJSON(M));
}

TEST(ProjectIndexMerge, AHookOnlyWhenEveryBodyAgrees) {
  auto WithBody = [](std::string TU, std::optional<HookShape> H) {
    IndexFile S;
    S.TUs = {TU};
    Function Fn;
    Fn.USR = "c:@F@hook";
    Fn.Name = "hook";
    Fn.Definitions = {{{TU, 3, 5}, 6, TU}};
    Fn.Hook = H;
    Fn.NotHook = !H;
    S.Functions = {Fn};
    return S;
  };
  IndexFile Caller;
  Caller.TUs = {"/p/main.c"};
  Function Called;
  Called.USR = "c:@F@hook";
  Called.Name = "hook";
  Called.Calls = {site("/p/main.c", 7, "main", true)};
  Caller.Functions = {Called};
  HookShape Zero;
  Zero.Shape = HookShape::Kind::Constant;
  Zero.Disabled = "0";
  HookShape One = Zero;
  One.Disabled = "1";

  IndexFile M = mergeShards({Caller, WithBody("/p/a.c", Zero)});
  ASSERT_TRUE(M.Functions[0].Hook.has_value()) << "a declaration elsewhere changes nothing";
  EXPECT_EQ(M.Functions[0].Hook->Disabled, "0");
  EXPECT_EQ(M.Functions[0].Calls.size(), 1u);
  EXPECT_TRUE(mergeShards({WithBody("/p/a.c", Zero), WithBody("/p/b.c", Zero)}).Functions[0].Hook);
  // Two configurations that disagree, or one that is no hook: no hook.
  EXPECT_FALSE(mergeShards({WithBody("/p/a.c", Zero), WithBody("/p/b.c", One)}).Functions[0].Hook);
  EXPECT_FALSE(mergeShards({WithBody("/p/a.c", Zero), WithBody("/p/b.c", std::nullopt)})
                   .Functions[0]
                   .Hook);
  EXPECT_FALSE(mergeShards({WithBody("/p/b.c", std::nullopt), WithBody("/p/a.c", Zero)})
                   .Functions[0]
                   .Hook);
}

TEST(ProjectIndexMerge, PureOnlyWhenEveryBodyIsAndTheFirstReasonOtherwise) {
  auto WithBody = [](std::string TU, bool Pure, std::string Impure) {
    IndexFile S;
    S.TUs = {TU};
    Function Fn;
    Fn.USR = "c:@F@limit";
    Fn.Name = "limit";
    Fn.Definitions = {{{TU, 3, 5}, 6, TU}};
    Fn.Pure = Pure;
    Fn.Impure = std::move(Impure);
    S.Functions = {Fn};
    return S;
  };
  IndexFile Caller;
  Caller.TUs = {"/p/main.c"};
  Function Called;
  Called.USR = "c:@F@limit";
  Called.Name = "limit";
  Called.Calls = {site("/p/main.c", 7, "main", true)};
  Caller.Functions = {Called};
  IndexFile PureA = WithBody("/p/a.c", true, ""), PureB = WithBody("/p/b.c", true, "");
  IndexFile Writes = WithBody("/p/c.c", false, "increments 'n'");
  IndexFile Other = WithBody("/p/d.c", false, "assigns to 'g'");

  ProjectIndex Both(mergeShards({Caller, PureA, PureB}));
  EXPECT_EQ(Both.purity("c:@F@limit"), std::optional<std::string>(""))
      << "a declaration elsewhere changes nothing";
  for (const std::vector<IndexFile> &Order :
       {std::vector<IndexFile>{PureA, Writes, Other}, std::vector<IndexFile>{Writes, PureA, Other}}) {
    IndexFile M = mergeShards(Order);
    EXPECT_FALSE(M.Functions[0].Pure);
    EXPECT_EQ(M.Functions[0].Impure, "increments 'n'");
  }
  EXPECT_EQ(ProjectIndex(mergeShards({Caller})).purity("c:@F@limit"), std::nullopt)
      << "no body seen: the index does not know";
  // Round trip, and the two together are an error.
  std::string Json = toJSON(mergeShards({Caller, Writes}));
  EXPECT_NE(Json.find("\"impure\":\"increments 'n'\""), std::string::npos) << Json;
  llvm::Expected<IndexFile> Back = parseIndexFile(Json, "idx.json");
  ASSERT_TRUE(static_cast<bool>(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(toJSON(*Back), Json);
  std::string Both2 = toJSON(mergeShards({PureA}));
  Both2.replace(Both2.find("\"pure\":true"), 11, "\"pure\":true,\"impure\":\"x\"");
  EXPECT_EQ(errorOf(Both2), "idx.json: functions[0]: \"pure\" and \"impure\" together");
}

// The result cache's part (docs/project-index.md): while recording, every
// lookup is kept as a read; answering a read again in another index tells
// whether what the checks saw there changed.
TEST(ProjectIndexReads, LookupsAreRecordedAndAnsweredAgain) {
  ProjectIndex P(mergeShards({sampleShard()}));
  (void)P.find("c:@F@check_len");
  EXPECT_TRUE(P.reads().empty()) << "nothing recorded before recordReads()";
  P.recordReads();
  (void)P.find("c:@F@check_len");
  (void)P.find("c:@F@nothing");
  (void)P.purity("c:@F@should_fail");
  (void)P.assertUsesOf({"/p/include/dbg.h", 3, 9});
  (void)P.findByDefinition({"/p/src/check.c", 5, 6});
  EXPECT_EQ(P.reads(), (std::vector<std::string>{"assert-uses\t/p/include/dbg.h\t3\t9",
                                                 "definition\t/p/src/check.c\t5\t6",
                                                 "find\tc:@F@check_len", "find\tc:@F@nothing",
                                                 "purity\tc:@F@should_fail"}));
  EXPECT_EQ(P.answer("find\tc:@F@nothing"), "none");
  EXPECT_EQ(P.answer("purity\tc:@F@should_fail"), "none") << "no body says either way";
  EXPECT_EQ(P.answer("find\tc:@F@check_len"), P.answer("definition\t/p/src/check.c\t5\t6"));
  EXPECT_NE(P.answer("find\tc:@F@check_len")->find("\"check_len\""), std::string::npos);
  EXPECT_EQ(P.answer("assert-uses\t/p/include/dbg.h\t3\t9"),
            P.answer("assert-uses\t/p/include/dbg.h\t4\t9"));
  EXPECT_EQ(P.answer("lookup\tc:@F@check_len"), std::nullopt) << "not a read";
  EXPECT_EQ(P.answer("definition\t/p/src/check.c\tfive\t6"), std::nullopt);

  // A new call site of check_len changes its answer, not should_fail's.
  IndexFile More = sampleShard();
  More.Functions[0].Calls.push_back(site("/p/src/other.c", 30, "other", true));
  ProjectIndex Q(mergeShards({More}));
  EXPECT_NE(Q.answer("find\tc:@F@check_len"), P.answer("find\tc:@F@check_len"));
  EXPECT_EQ(Q.answer("find\tc:@F@should_fail"), P.answer("find\tc:@F@should_fail"));
  EXPECT_EQ(Q.answer("purity\tc:@F@check_len"), P.answer("purity\tc:@F@check_len"));
}

TEST(ProjectIndexFormat, BadFilesAreErrorsNamingTheFileAndField) {
  EXPECT_EQ(errorOf("{\"format\": "),
            "idx.json: not valid JSON: [1:11, byte=11]: Unexpected EOF");
  EXPECT_EQ(errorOf("[1, 2]"), "idx.json: the document is not a JSON object");
  EXPECT_EQ(errorOf("{\"format\": \"clangd-index\", \"version\": 1}"),
            "idx.json: not a hotpath-tidy project index (its \"format\" is not "
            "\"hotpath-project-index\")");
  EXPECT_EQ(errorOf("{\"format\": \"hotpath-project-index\", \"version\": 1, \"kind\": \"index\"}"),
            "idx.json: project index version 1, and this hotpath-tidy reads version 7: rebuild "
            "it (hotpath-tidy --index-only --reindex -p <build-dir>)");
  const std::string Head = "{\"format\": \"hotpath-project-index\", \"version\": 7, \"kind\": "
                           "\"index\", \"files\": [\"/a.c\"], \"tus\": [0], ";
  EXPECT_EQ(errorOf(Head + "\"functions\": [{\"usr\": \"u\", \"name\": \"f\", \"calls\": "
                           "[{\"at\": [0, 1, 1], \"caller\": 7}]}]}"),
            "idx.json: functions[0].calls[0].caller: not a string");
  EXPECT_EQ(errorOf(Head + "\"functions\": [{\"usr\": \"u\", \"name\": \"f\", \"calls\": "
                           "[{\"at\": [3, 1, 1], \"caller\": \"g\"}]}]}"),
            "idx.json: functions[0].calls[0].at[0]: file number 3 is not in \"files\"");
  EXPECT_EQ(errorOf(Head + "\"functions\": [{\"usr\": \"u\", \"name\": \"f\", \"hook\": "
                           "{\"shape\": \"sometimes\"}}]}"),
            "idx.json: functions[0].hook.shape: 'sometimes' is not empty, constant or switch");
  EXPECT_EQ(errorOf(Head + "\"functions\": 3}"),
            "idx.json: \"functions\" is missing or not an array");
  EXPECT_EQ(errorOf(Head + "\"functions\": []}"), "(parsed)");
}

TEST(ProjectIndexFormat, TheChecksWantTheMergedIndexNotAShard) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("hotpath-index-test", Dir));
  std::string Path = (Dir + "/shard.json").str();
  ASSERT_FALSE(static_cast<bool>(writeIndexFile(Path, sampleShard())));
  auto Loaded = ProjectIndex::load(Path);
  ASSERT_FALSE(static_cast<bool>(Loaded));
  EXPECT_EQ(llvm::toString(Loaded.takeError()),
            Path + ": a shard of one translation unit, not the merged project index "
                   "(index.db beside the shards/ directory)");
  // A directory stands for its store, index.db.
  IndexFile M = mergeShards({sampleShard()});
  ASSERT_FALSE(static_cast<bool>(writeStore((Dir + "/index.db").str(), M)));
  auto FromDir = ProjectIndex::load(Dir);
  ASSERT_TRUE(static_cast<bool>(FromDir)) << llvm::toString(FromDir.takeError());
  EXPECT_NE((*FromDir)->find("c:@F@check_len"), nullptr);
  EXPECT_NE((*FromDir)->findByDefinition({"/p/src/fault.c", 3, 5}), nullptr);
  EXPECT_NE((*FromDir)->findByDeclaration({"/p/include/buf.h", 3, 6}), nullptr);
  llvm::sys::fs::remove_directories(Dir);
}

//===----------------------------------------------------------------------===//
// The store: queried per lookup, the same answers as the index in memory.
//===----------------------------------------------------------------------===//

/// A second shard: another TU that calls check_len, defines a function
/// that is impure, and has uses of a disabled assert.
IndexFile otherShard() {
  IndexFile F;
  F.K = IndexFile::Kind::Shard;
  F.TUs = {"/p/src/other.c"};
  Function Fn;
  Fn.USR = "c:@F@check_len";
  Fn.Name = "check_len";
  Fn.Declarations = {{"/p/include/buf.h", 3, 6}};
  Fn.Calls = {site("/p/src/other.c", 40, "other", true)};
  Function Log;
  Log.USR = "c:@F@log_hit";
  Log.Name = "log_hit";
  Log.Definitions = {{{"/p/src/other.c", 10, 6}, 14, "/p/src/other.c"}};
  Log.Impure = "increments 'hits'";
  Function Get;
  Get.USR = "c:@F@get";
  Get.Name = "get";
  Get.Definitions = {{{"/p/src/other.c", 20, 5}, 22, "/p/src/other.c"}};
  Get.Pure = true;
  F.Functions = {Get, Fn, Log};
  F.AssertUses = {{"ASSERT", {"/p/include/dbg.h", 3, 9}, {"/p/src/other.c", 50, 2}, "it increments 'n'"},
                  {"ASSERT", {"/p/include/dbg.h", 3, 9}, {"/p/src/other.c", 60, 2}, "it assigns to 'x'"},
                  {"DCHECK", {"/p/include/dbg.h", 8, 9}, {"/p/src/other.c", 70, 2}, "it calls 'f'"}};
  return F;
}

/// A temporary directory, removed with the test.
struct TempDir {
  llvm::SmallString<128> Path;
  TempDir() { EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("hotpath-index-test", Path)); }
  ~TempDir() { llvm::sys::fs::remove_directories(Path); }
  std::string operator/(llvm::StringRef Name) const { return (Path + "/" + Name).str(); }
};

TEST(ProjectIndexStore, AnswersEveryLookupAsTheIndexInMemoryDoes) {
  TempDir Dir;
  IndexFile M = mergeShards({sampleShard(), otherShard()});
  ASSERT_FALSE(static_cast<bool>(writeStore(Dir / "index.db", M,
                                            {{"/p/src/main.c", "m5"}, {"/p/src/other.c", "o5"}})));
  ProjectIndex Mem(M);
  auto Stored = ProjectIndex::load(Dir.Path);
  ASSERT_TRUE(static_cast<bool>(Stored)) << llvm::toString(Stored.takeError());
  const ProjectIndex &S = **Stored;
  EXPECT_EQ(S.path(), Dir / "index.db");
  (void)S.recordReads();
  Mem.recordReads();
  // Whether a function is a hook is read from its own column first, before
  // its record is (a fresh store), then from the record read.
  EXPECT_TRUE(S.hasHook("c:@F@should_fail"));
  EXPECT_FALSE(S.hasHook("c:@F@check_len"));
  EXPECT_FALSE(S.hasHook("c:@F@nothing"));
  std::vector<std::string> Reads = {
      "hook\tc:@F@should_fail", "hook\tc:@F@check_len", "hook\tc:@F@nothing",
      "find\tc:@F@check_len", "find\tc:@F@should_fail", "find\tc:@F@nothing",
      "purity\tc:@F@log_hit", "purity\tc:@F@get", "purity\tc:@F@should_fail",
      "purity\tc:@F@nothing", "definition\t/p/src/check.c\t5\t6",
      "definition\t/p/src/check.c\t5\t7", "declaration\t/p/include/buf.h\t3\t6",
      "assert-uses\t/p/include/dbg.h\t3\t9", "assert-uses\t/p/include/dbg.h\t8\t9",
      "assert-uses\t/p/include/dbg.h\t9\t9"};
  for (const std::string &R : Reads)
    EXPECT_EQ(S.answer(R), Mem.answer(R)) << R;
  EXPECT_EQ(S.answer("purity\tc:@F@log_hit"), "impure: increments 'hits'");
  EXPECT_EQ(S.answer("purity\tc:@F@get"), "pure");
  EXPECT_EQ(S.answer("hook\tc:@F@should_fail"), "hook");
  EXPECT_EQ(S.answer("hook\tc:@F@check_len"), "none");
  EXPECT_TRUE(S.hasHook("c:@F@should_fail")) << "the same once its record is read";
  // The lookups themselves, and the same record twice (read once, kept).
  const Function *Check = S.find("c:@F@check_len");
  ASSERT_NE(Check, nullptr);
  EXPECT_EQ(Check, S.find("c:@F@check_len"));
  EXPECT_EQ(Check->Calls.size(), 2u);
  EXPECT_EQ(Check->Calls[0].Count, 3u);
  EXPECT_EQ(Check->Calls[0].ConstantArgs, (std::vector<std::pair<unsigned, int64_t>>{{1, -4}, {2, 8}}));
  EXPECT_EQ(S.findByDefinition({"/p/src/check.c", 5, 6}), Check);
  EXPECT_EQ(S.findByDeclaration({"/p/include/buf.h", 3, 6}), Check);
  EXPECT_EQ(S.findByDefinition({"/p/include/buf.h", 3, 6}), nullptr);
  ASSERT_NE(S.find("c:@F@should_fail"), nullptr);
  ASSERT_TRUE(S.find("c:@F@should_fail")->Hook.has_value());
  EXPECT_EQ(S.find("c:@F@should_fail")->Hook->Switch, "fault_on && cfg.level > 2");
  EXPECT_EQ(S.purity("c:@F@log_hit"), std::optional<std::string>("increments 'hits'"));
  EXPECT_EQ(S.purity("c:@F@get"), std::optional<std::string>(""));
  EXPECT_EQ(S.purity("c:@F@check_len"), std::nullopt);
  llvm::ArrayRef<AssertUse> Uses = S.assertUsesOf({"/p/include/dbg.h", 3, 9});
  ASSERT_EQ(Uses.size(), 2u);
  EXPECT_EQ(Uses[1].Why, "it assigns to 'x'");
  EXPECT_TRUE(S.assertUsesOf({"/p/include/dbg.h", 9, 9}).empty());
  // The reads recorded are the same whichever index answers them.
  for (const std::string &R : Reads)
    (void)Mem.answer(R);
  (void)Mem.hasHook("c:@F@should_fail");
  (void)Mem.hasHook("c:@F@check_len");
  (void)Mem.hasHook("c:@F@nothing");
  (void)Mem.find("c:@F@check_len");
  (void)Mem.find("c:@F@should_fail");
  (void)Mem.findByDefinition({"/p/src/check.c", 5, 6});
  (void)Mem.findByDeclaration({"/p/include/buf.h", 3, 6});
  (void)Mem.findByDefinition({"/p/include/buf.h", 3, 6});
  (void)Mem.purity("c:@F@log_hit");
  (void)Mem.purity("c:@F@get");
  (void)Mem.purity("c:@F@check_len");
  (void)Mem.assertUsesOf({"/p/include/dbg.h", 3, 9});
  (void)Mem.assertUsesOf({"/p/include/dbg.h", 9, 9});
  EXPECT_EQ(S.reads(), Mem.reads());
  // Read whole (the driver's walks), it is the merge.
  EXPECT_EQ(toJSON(S.file()), toJSON(M));
  EXPECT_EQ(storedShards(Dir / "index.db"),
            (std::optional<std::map<std::string, std::string>>(
                {{"/p/src/main.c", "m5"}, {"/p/src/other.c", "o5"}})));
  EXPECT_EQ(storedShards(Dir / "none.db"), std::nullopt);
}

TEST(ProjectIndexStore, AStoreThatDoesNotReadIsAnErrorNamingIt) {
  TempDir Dir;
  // Not a store: a file that is no SQLite database is read as JSON.
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Dir / "index.db", EC);
    OS << "garbage";
  }
  auto Bad = ProjectIndex::load(Dir.Path);
  ASSERT_FALSE(static_cast<bool>(Bad));
  EXPECT_EQ(llvm::toString(Bad.takeError()).rfind(Dir / "index.db" + ": not valid JSON", 0), 0u);
  // An SQLite database that is not a store.
  llvm::sys::fs::remove(Dir / "index.db");
  ASSERT_FALSE(static_cast<bool>(writeStore(Dir / "index.db", mergeShards({sampleShard()}))));
  std::string Other = Dir / "other.db";
  ASSERT_FALSE(llvm::sys::fs::copy_file(Dir / "index.db", Other));
  // Its version changed by hand: older is a rebuild, newer an error.
  for (auto [Version, Older] : {std::pair<int, bool>{5, true}, {99, false}}) {
    std::string Path = Dir / ("v" + std::to_string(Version) + ".db");
    ASSERT_FALSE(llvm::sys::fs::copy_file(Dir / "index.db", Path));
    std::string Cmd = "sqlite3 '" + Path + "' \"UPDATE meta SET value = '" +
                      std::to_string(Version) + "' WHERE name = 'version'\"";
    if (std::system(Cmd.c_str()) != 0)
      GTEST_SKIP() << "no sqlite3 command";
    auto L = ProjectIndex::load(Path);
    ASSERT_FALSE(static_cast<bool>(L));
    bool SawOlder = false;
    std::string Msg;
    llvm::handleAllErrors(L.takeError(), [&](const OlderVersionError &E) {
      SawOlder = true;
      Msg = E.message();
    }, [&](const llvm::ErrorInfoBase &E) { Msg = E.message(); });
    EXPECT_EQ(SawOlder, Older);
    EXPECT_EQ(Msg, Path + ": project index version " + std::to_string(Version) +
                       ", and this hotpath-tidy reads version 7: rebuild it (hotpath-tidy "
                       "--index-only --reindex -p <build-dir>)");
  }
  std::string Cmd = "sqlite3 '" + Other + "' \"DROP TABLE meta\"";
  if (std::system(Cmd.c_str()) != 0)
    GTEST_SKIP() << "no sqlite3 command";
  auto NoMeta = ProjectIndex::load(Other);
  ASSERT_FALSE(static_cast<bool>(NoMeta));
  EXPECT_EQ(llvm::toString(NoMeta.takeError()),
            Other + ": not a hotpath-tidy project index (no such table: meta)");
}

// A shard file: its key on the first line, read without the records.
TEST(ProjectIndexShardFile, TheKeyIsReadWithoutTheRecords) {
  TempDir Dir;
  std::string Path = Dir / "main.c.0123.json";
  std::string Records;
  ASSERT_FALSE(static_cast<bool>(writeShardFile(Path, sampleShard(), &Records)));
  EXPECT_EQ(Records.size(), 32u);
  llvm::Expected<KeyFile> K = readShardKey(Path);
  ASSERT_TRUE(static_cast<bool>(K)) << llvm::toString(K.takeError());
  EXPECT_EQ(K->TU, "/p/src/main.c");
  EXPECT_EQ(K->Records, Records);
  EXPECT_EQ(K->Key.Command, sampleShard().Key->Command);
  EXPECT_TRUE(K->Key.Inputs == sampleShard().Key->Inputs);
  llvm::Expected<IndexFile> Whole = readShardFile(Path);
  ASSERT_TRUE(static_cast<bool>(Whole)) << llvm::toString(Whole.takeError());
  EXPECT_EQ(toJSON(*Whole), toJSON(sampleShard()));
  // A key rewritten (time stamps moved) keeps the records.
  K->Key.Inputs[0].MTime = 42;
  ASSERT_FALSE(static_cast<bool>(rewriteShardKey(Path, *K)));
  llvm::Expected<IndexFile> Again = readShardFile(Path);
  ASSERT_TRUE(static_cast<bool>(Again)) << llvm::toString(Again.takeError());
  EXPECT_EQ(Again->Key->Inputs[0].MTime, 42);
  EXPECT_EQ(Again->Functions.size(), 2u);
  // Records that are not those the key names are an error, as is a key
  // line that does not read (a cut file: no records at all).
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  ASSERT_TRUE(static_cast<bool>(Buf));
  std::string Text = (*Buf)->getBuffer().str();
  Text.replace(Text.find("check_len"), 9, "check_lem");
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(Path, Text)));
  llvm::Expected<IndexFile> Changed = readShardFile(Path);
  ASSERT_FALSE(static_cast<bool>(Changed));
  EXPECT_EQ(llvm::toString(Changed.takeError()),
            Path + ": its records are not those its key names (MD5 " + Records + ")");
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(Path, "{\"format\": \"hotpath-project-index\", \"ver")));
  llvm::Expected<KeyFile> Cut = readShardKey(Path);
  ASSERT_FALSE(static_cast<bool>(Cut));
  EXPECT_EQ(llvm::toString(Cut.takeError()).rfind(Path + ": not valid JSON", 0), 0u);
}

// The key as written is read by a scanner of that one layout; any other
// layout of the same JSON (spaces, another field order, escapes in a path)
// reads the same through the general parser, and a broken key is the same
// error either way.
TEST(ProjectIndexShardFile, AKeyReadsTheSameInAnyLayout) {
  KeyFile K;
  K.TU = "/p/src/a \"quoted\" \\ name.c";
  K.Key.Command = "ab533d6791e74fbab54c83788f0026f3";
  K.Records = "11900e6df05dcc09bd36db002d4c8023";
  K.Key.Inputs = {{"/p/include/x.h", 345, 1673086324000000000, "71d5e3ddcf1ef4b1502cf236e533e4d2"},
                  {"/p/src/a \"quoted\" \\ name.c", 0, -5, "00000000000000000000000000000000"},
                  {"/p/include/y.h", 12776, 7, "281dd9f48d9665fb62dafc6ab63a9df5"}};
  auto Same = [&](llvm::StringRef Text) {
    llvm::Expected<KeyFile> R = parseKeyFile(Text, "k");
    ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
    EXPECT_EQ(R->TU, K.TU);
    EXPECT_EQ(R->Records, K.Records);
    EXPECT_EQ(R->Key.Command, K.Key.Command);
    EXPECT_TRUE(R->Key.Inputs == K.Key.Inputs);
  };
  std::string Written = toJSON(K);
  Same(Written);
  KeyFile Plain = K;
  Plain.TU = "/p/src/a.c";
  Plain.Key.Inputs[1].File = "/p/src/a.c";
  std::string PlainText = toJSON(Plain);
  {
    llvm::Expected<KeyFile> R = parseKeyFile(PlainText, "k");
    ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
    EXPECT_TRUE(R->Key.Inputs == Plain.Key.Inputs);
    EXPECT_EQ(R->TU, "/p/src/a.c");
  }
  // The same JSON pretty-printed, and with the fields of an input reordered.
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Written);
  ASSERT_TRUE(static_cast<bool>(V));
  Same(llvm::formatv("{0:2}", *V).str());
  std::string Reordered = Written;
  std::string From = "{\"file\":\"/p/include/y.h\",\"size\":12776,";
  ASSERT_NE(Reordered.find(From), std::string::npos);
  Reordered.replace(Reordered.find(From), From.size(), "{\"size\":12776,\"file\":\"/p/include/y.h\",");
  Same(Reordered);
  // Broken: an input without its hash, in the written layout.
  std::string NoHash = PlainText;
  size_t At = NoHash.find(",\"hash\":\"281d");
  ASSERT_NE(At, std::string::npos);
  NoHash.erase(At, std::string(",\"hash\":\"281dd9f48d9665fb62dafc6ab63a9df5\"").size());
  llvm::Expected<KeyFile> Bad = parseKeyFile(NoHash, "k");
  ASSERT_FALSE(static_cast<bool>(Bad));
  EXPECT_EQ(llvm::toString(Bad.takeError()),
            "k: inputs[2]: needs \"file\", \"size\", \"mtime\" and \"hash\"");
  // Trailing text after the key is not a key.
  llvm::Expected<KeyFile> Trailing = parseKeyFile(PlainText.substr(0, PlainText.size() - 1) + "x", "k");
  ASSERT_FALSE(static_cast<bool>(Trailing));
  EXPECT_EQ(llvm::toString(Trailing.takeError()).rfind("k: not valid JSON", 0), 0u);
}

//===----------------------------------------------------------------------===//
// The checks with an index.
//===----------------------------------------------------------------------===//

const CheckTester<CheckSplitCheck> Split("hotpath-check-split");
const CheckTester<HookGateCheck> Gate("hotpath-hook-gate");

/// A temporary index file for a test, removed with it.
class IndexOnDisk {
public:
  explicit IndexOnDisk(std::vector<Function> Functions) {
    llvm::sys::fs::createUniqueDirectory("hotpath-index-test", Dir);
    IndexFile F;
    F.K = IndexFile::Kind::Index;
    F.Functions = std::move(Functions);
    // The store, as hotpath-tidy writes it (a JSON index reads the same:
    // HeatTest's).
    Path = (Dir + "/index.db").str();
    EXPECT_FALSE(static_cast<bool>(writeStore(Path, F)));
  }
  ~IndexOnDisk() { llvm::sys::fs::remove_directories(Dir); }
  const std::string &path() const { return Path; }

private:
  llvm::SmallString<128> Dir;
  std::string Path;
};

/// The path the checks give the main file of a CheckRunner run.
std::string mainFile(llvm::StringRef Name) {
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  llvm::sys::path::append(Cwd, Name);
  return std::string(Cwd);
}

std::string multi(const std::string &Name) {
  return "check function '" + Name +
         "' tests 2 conditions on a hot path; merge them into one unlikely branch and move "
         "the reporting to a cold function";
}

const char *const CheckLen = R"c(#include <stdbool.h>
#include <stdio.h>
struct rec { unsigned long len; };
bool check_len(const struct rec *r, unsigned int off, int size)
{
	const unsigned long end = (unsigned long)off + size;
	if (off > r->len) {
		fprintf(stderr, "start\n");
		return false;
	}
	if (end > r->len) {
		fprintf(stderr, "end\n");
		return false;
	}
	return true;
}
)c";

/// \p Name called in 4 nested loops in main: with the whole program in
/// view, heat needs a chain estimated to run 2^20 times (HeatModel.h).
Function calledInALoop(const std::string &Name) {
  Function Fn;
  Fn.USR = "c:@F@" + Name;
  Fn.Name = Name;
  CallSite C = site("/p/src/main.c", 30, "main", true);
  C.CallerUSR = "c:@F@main";
  C.Loops = 4;
  Fn.Calls = {C};
  return Fn;
}

Function checkLenIn(std::vector<CallSite> Calls) {
  Function Fn;
  Fn.USR = "c:@F@check_len";
  Fn.Name = "check_len";
  Fn.Calls = std::move(Calls);
  return Fn;
}

TEST(ProjectIndexInChecks, HeatFromOtherFilesMakesAFunctionHot) {
  CallSite Loop = site("/p/src/main.c", 16, "main", true);
  Loop.ConstantArgs = {{2, 4}};
  CallSite Acc = site("/p/src/acc.c", 4, "get_u8", false, "DEFINE_GET");
  Acc.ConstantArgs = {{2, 1}};
  CallSite Acc2 = site("/p/src/acc.c", 4, "get_u16", false, "DEFINE_GET");
  Acc2.ConstantArgs = {{2, 2}};
  IndexOnDisk Idx({checkLenIn({Loop, Acc, Acc2})});
  RunResult R = Split.run(CheckLen, "index-heat.c", {{"ProjectIndex", Idx.path()}});
  const std::string NoFix = "no fix: it has external linkage and no declaration in a header to "
                            "put the inline fast path in";
  EXPECT_EQ(R.Diags, (std::vector<Diag>{
                         Split.warning(4, 6, multi("check_len")),
                         Split.note(4, 6, "'check_len' is hot: called in a loop in main.c:16 and "
                                          "from 2 macro-generated accessors in acc.c"),
                         Split.note(4, 6, NoFix)}))
      << R.dump();
  // Control: the same code without the index is not hot at all.
  EXPECT_TRUE(Split.run(CheckLen, "index-heat.c").Diags.empty());
}

TEST(ProjectIndexInChecks, TheTUsOwnSitesCountOnce) {
  std::string Code = std::string(CheckLen) + R"c(
unsigned use(const struct rec *r) { return check_len(r, 0, 1); }
)c";
  // The index holds this TU's call (as the indexer of this TU wrote it) and
  // one in an assert in another file: a score of 1 + (1 + 1), not 1 + 1 + (1 + 1).
  CallSite Here = site(mainFile("index-once.c"), 18, "use");
  Here.Loc.Col = 44;
  Here.ConstantArgs = {{1, 0}, {2, 1}};
  CallSite There = site("/p/src/other.c", 3, "other");
  There.Macros = {"assert"}; // a repeat: counts alone never make it hot
  There.ConstantArgs = {{1, 0}, {2, 1}};
  IndexOnDisk Idx({checkLenIn({Here, There})});
  RunResult R = Split.run(Code, "index-once.c",
                          {{"ProjectIndex", Idx.path()}, {"MultiBranchThreshold", "3"}});
  ASSERT_GE(R.Diags.size(), 2u) << R.dump();
  EXPECT_EQ(R.Diags[1],
            Split.note(4, 6, "'check_len' is hot: 1 call site; called from 1 call site in other.c "
                             "and 1 of them inside assert-like macros"));
  // Control: with the threshold one above, the two calls are not enough.
  RunResult Above =
      Split.run(Code, "index-once.c", {{"ProjectIndex", Idx.path()}, {"MultiBranchThreshold", "4"}});
  EXPECT_TRUE(Above.Diags.empty()) << Above.dump();
}

TEST(ProjectIndexInChecks, EveryCallSitesConstantIsAFact) {
  std::string Code = std::string(CheckLen);
  // Static: every call is in this file, with or without an index.
  std::string Static = "static " + Code.substr(Code.find("bool check_len")) + R"c(
unsigned a(const struct rec *r, unsigned o) { return check_len(r, o, 4); }
unsigned b(const struct rec *r, unsigned o) { return check_len(r, o, 8); }
unsigned c(const struct rec *r, unsigned o) { unsigned n = 0; for (int i = 0; i < 4; i++) n += check_len(r, o, 2); return n; }
)c";
  Static = "#include <stdbool.h>\n#include <stdio.h>\nstruct rec { unsigned long len; };\n" + Static;
  RunResult R = Split.run(Static, "facts.c");
  const Diag Implied = Split.note(7, 6, "this condition implies 'end > r->len' (the sum cannot "
                                        "wrap: every call site in this file passes a constant "
                                        "from 2 to 8 for 'size'), so the fast path tests only "
                                        "that one");
  EXPECT_NE(std::find(R.Diags.begin(), R.Diags.end(), Implied), R.Diags.end()) << R.dump();
  // Control: one caller passes a variable: no fact, both conditions kept.
  std::string Varying = Static;
  Varying.replace(Varying.find("check_len(r, o, 2)"), 18, "check_len(r, o, (int)o)");
  RunResult V = Split.run(Varying, "facts.c");
  ASSERT_FALSE(V.Diags.empty()) << V.dump();
  for (const Diag &D : V.Diags)
    EXPECT_EQ(D.Message.find("implies"), std::string::npos) << V.dump();
  // External: the project index holds every call.
  CallSite Sz4 = site("/p/src/main.c", 16, "main", true);
  Sz4.ConstantArgs = {{2, 4}};
  Sz4.Loops = 4; // in four nested loops: 2^20 runs
  IndexOnDisk Idx({checkLenIn({Sz4})});
  // (Declared in a header, so that the fix is planned and its notes given.)
  std::string External = "#include <stdio.h>\n#include \"rec.h\"\n" +
                         std::string(CheckLen).substr(std::string(CheckLen).find("bool check_len"));
  const Options Header = {{"rec.h", "#include <stdbool.h>\nstruct rec { unsigned long len; };\n"
                                    "bool check_len(const struct rec *r, unsigned int off, int "
                                    "size);\n"}};
  RunResult E = Split.run(External, "facts-ext.c", {{"ProjectIndex", Idx.path()}}, Header);
  EXPECT_NE(std::find(E.Diags.begin(), E.Diags.end(),
                      Split.note(6, 6, "this condition implies 'end > r->len' (the sum cannot "
                                       "wrap: every call site in the project passes the constant "
                                       "4 for 'size'), so the fast path tests only that one")),
            E.Diags.end())
      << E.dump();
  // Control: its address is taken somewhere: no fact.
  Function Taken = checkLenIn({Sz4});
  Taken.AddressTaken = true;
  IndexOnDisk TakenIdx({Taken});
  RunResult T = Split.run(External, "facts-ext.c", {{"ProjectIndex", TakenIdx.path()}}, Header);
  ASSERT_EQ(T.Diags.size(), 3u) << T.dump();
  EXPECT_EQ(T.Diags[2], Split.note(3, 6, "no fix: its address is taken, and the rewrite would "
                                         "change the function that address names"));
}

TEST(ProjectIndexInChecks, AssumeNoWrapIsOptInAndSaidSo) {
  const char *Wide = R"c(#include <stdbool.h>
#include <stdio.h>
struct rec { unsigned long len; };
static bool check_wide(const struct rec *r, unsigned long off, unsigned long size)
{
	if (off > r->len) {
		fprintf(stderr, "start\n");
		return false;
	}
	if (off + size > r->len) {
		fprintf(stderr, "end\n");
		return false;
	}
	return true;
}
unsigned a(const struct rec *r, unsigned long o, unsigned long n) { return check_wide(r, o, n); }
unsigned b(const struct rec *r, unsigned long o, unsigned long n) { return check_wide(r, o, n); }
unsigned c(const struct rec *r, unsigned long o, unsigned long n) { unsigned k = 0; for (int i = 0; i < 4; i++) k += check_wide(r, o, n); return k; }
)c";
  RunResult On = Split.run(Wide, "nowrap.c", {{"AssumeNoWrap", "true"}});
  EXPECT_NE(std::find(On.Diags.begin(), On.Diags.end(),
                      Split.note(6, 6, "this condition implies 'off + size > r->len' (assuming, "
                                       "as option AssumeNoWrap says, that the sum does not wrap), "
                                       "so the fast path tests only that one")),
            On.Diags.end())
      << On.dump();
  EXPECT_NE(On.fixed().find("if (__builtin_expect(off + size > r->len, 0))"), std::string::npos)
      << On.fixed();
  // Without it the conditions stay exact: both tested.
  RunResult Off = Split.run(Wide, "nowrap.c");
  EXPECT_NE(Off.fixed().find("if (__builtin_expect(off > r->len || off + size > r->len, 0))"),
            std::string::npos)
      << Off.fixed();
  for (const Diag &D : Off.Diags)
    EXPECT_EQ(D.Message.find("implies"), std::string::npos);
  std::vector<Diag> Bad;
  hotpath::test::dumpOptions<CheckSplitCheck>("hotpath-check-split",
                                              {{"hotpath-check-split.AssumeNoWrap", "yes"}}, &Bad);
  ASSERT_EQ(Bad.size(), 1u);
  EXPECT_EQ(Bad[0].Message, "hotpath-check-split: option AssumeNoWrap 'yes' is not 'true' or "
                            "'false'");
}

/// A hook whose body is in \p DefFile with shape \p H, called once in a
/// loop by run() at line 6, column 7 of \p CallerFile.
Function remoteHook(const std::string &Name, const std::string &DefFile, HookShape H,
                    llvm::StringRef CallerFile) {
  Function Hook;
  Hook.USR = "c:@F@" + Name;
  Hook.Name = Name;
  Hook.Definitions = {{{DefFile, 3, 5}, 7, DefFile}};
  Hook.Hook = std::move(H);
  CallSite Here = site(mainFile(CallerFile), 6, "run", true);
  Here.Loc.Col = 7;
  Hook.Calls = {Here};
  return Hook;
}

TEST(ProjectIndexInChecks, AHookWhoseBodyIsInAnotherFile) {
  const char *Caller = R"c(int should_fail(unsigned long i);
unsigned long run(unsigned long n)
{
	unsigned long done = 0;
	for (unsigned long i = 0; i < n; i++) {
		if (should_fail(i))
			continue;
		done++;
	}
	return done;
}
)c";
  HookShape H;
  H.Shape = HookShape::Kind::Constant;
  H.Disabled = "0";
  Function Hook = remoteHook("should_fail", "/p/src/fault.c", H, "remote-hook.c");
  IndexOnDisk Idx({Hook, calledInALoop("run")});
  RunResult R = Gate.run(Caller, "remote-hook.c", {{"ProjectIndex", Idx.path()}});
  ASSERT_GE(R.Diags.size(), 2u) << R.dump();
  EXPECT_EQ(R.Diags[0], Gate.warning(6, 7, "hot call to hook 'should_fail', which does nothing "
                                           "unless switched on; test an inline gate first so the "
                                           "disabled case makes no call"));
  EXPECT_EQ(R.Diags[1], Gate.note(1, 5, "'should_fail' is a hook: its body in fault.c only "
                                        "returns 0 (project index)"));
  // Control: the index knows the function but not as a hook: nothing.
  Hook.Hook.reset();
  Hook.NotHook = true;
  IndexOnDisk NoHook({Hook, calledInALoop("run")});
  EXPECT_TRUE(Gate.run(Caller, "remote-hook.c", {{"ProjectIndex", NoHook.path()}}).Diags.empty());
}

TEST(ProjectIndexInChecks, AGateIsDefinedOnlyForCallsARunGates) {
  // Issue 26: should_failslab() defined here, its one hot call in another
  // file's run. The gate is defined here only when that run edits the
  // call's file: a TU's own file, or a header its header filter keeps.
  const char *Owner = R"c(#include "fault.h"
int should_fail(unsigned long i)
{
	(void)i;
	return 0;
}
)c";
  Options Named{{"HookFunctions", "should_fail=0"}, {"HookEnablers", "should_fail=setup()"}};
  Options::value_type Header{"fault.h", "int should_fail(unsigned long i);\n"};
  Function Hook;
  Hook.USR = "c:@F@should_fail";
  Hook.Name = "should_fail";
  CallSite InHeader = site("/p/include/slab.h", 9, "slab_pre_alloc_hook");
  InHeader.CallerUSR = "c:@F@slab_pre_alloc_hook";
  Hook.Calls = {InHeader};
  IndexOnDisk Idx({Hook});
  auto Run = [&](const std::string &Filter) {
    Options O = Named;
    O["ProjectIndex"] = Idx.path();
    O["HeaderFilterRegex"] = Filter;
    return Gate.run(Owner, "owner.c", O, {Header});
  };
  // slab.h kept: the run of every TU that includes it gates the call.
  RunResult Kept = Run(".*");
  EXPECT_NE(Kept.fixed().find("should_fail_gate_enable(void)"), std::string::npos) << Kept.dump();
  // Only fault.h kept: nothing gates the call, so no gate and no edit.
  RunResult Dropped = Run("fault\\.h$");
  ASSERT_EQ(Dropped.Diags.size(), 4u) << Dropped.dump();
  EXPECT_EQ(Dropped.Diags[0], Gate.warning(2, 5, "hook 'should_fail' is called out of line even "
                                                 "while it does nothing; define its gate here, "
                                                 "next to it"));
  EXPECT_EQ(Dropped.Diags[2].Message,
            "its hot calls in other files (project index) are in files no run edits");
  EXPECT_EQ(Dropped.Diags[3].Message, "no fix: no hot call of 'should_fail' can be gated here; "
                                      "a gate that gates no call only costs");
  EXPECT_EQ(Dropped.fixed(), Owner);
  EXPECT_EQ(Dropped.Files.at("fault.h"), Header.second);
  // Control: the call in a TU's own file is that TU's run's, whatever the
  // header filter keeps.
  Function Main;
  Main.USR = "c:@F@main";
  Main.Name = "main";
  Main.Definitions = {{{"/p/src/main.c", 3, 5}, 20, "/p/src/main.c"}};
  Hook.Calls = {site("/p/src/main.c", 9, "main")};
  Hook.Calls[0].CallerUSR = Main.USR;
  IndexOnDisk InMain({Hook, Main});
  Options O = Named;
  O["ProjectIndex"] = InMain.path();
  O["HeaderFilterRegex"] = "fault\\.h$";
  RunResult Own = Gate.run(Owner, "owner.c", O, {Header});
  EXPECT_NE(Own.fixed().find("should_fail_gate_enable(void)"), std::string::npos) << Own.dump();
}

TEST(ProjectIndexInChecks, AConstantGetterIsNoHook) {
  // btrfs-progs' btrfs_get_num_csums(): no parameter, unmarked, returns the
  // size of a table. Nothing could switch it on: no finding.
  const char *Caller = R"c(int num_csums(void);
int run(const int *v, int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		if (num_csums() > v[i])
			s++;
	return s;
}
)c";
  HookShape H;
  H.Shape = HookShape::Kind::Constant;
  H.Disabled = "4";
  Function Getter = remoteHook("num_csums", "/p/src/ctree.c", H, "getter.c");
  IndexOnDisk Idx({Getter, calledInALoop("run")});
  RunResult R = Gate.run(Caller, "getter.c", {{"ProjectIndex", Idx.path()}});
  EXPECT_TRUE(R.Diags.empty()) << R.dump();
  // Control: kept out of line on purpose (noinline), it is a hook.
  Getter.Hook->Marker = "noinline";
  IndexOnDisk Marked({Getter, calledInALoop("run")});
  RunResult M = Gate.run(Caller, "getter.c", {{"ProjectIndex", Marked.path()}});
  ASSERT_GE(M.Diags.size(), 2u) << M.dump();
  EXPECT_EQ(M.Diags[1].Message, "'num_csums' is a hook: its body in ctree.c only returns 4 "
                                "(project index), and it is kept out of line (noinline)");
}

TEST(ProjectIndexInChecks, WhetherAHookCanBeInlinedIsSaidFromWhereItsCallsAre) {
  // An empty, unmarked hook defined here and called from another file, once:
  // calls here may be inlined, those from main.c cannot be without LTO, and
  // none is hot. The reason says so, not "the compiler may inline it".
  const char *Def = R"c(void trace_event(int id)
{
	(void)id;
}
)c";
  Function Fn;
  Fn.USR = "c:@F@trace_event";
  Fn.Name = "trace_event";
  Fn.Calls = {site("/p/src/main.c", 7, "main")};
  IndexOnDisk Idx({Fn});
  const std::string Here = "not a hook: nothing keeps it out of line on purpose (noinline, "
                           "used, weak, an error-injection macro), so calls in this file may "
                           "be inlined";
  RunResult R = Gate.run(Def, "trace.c", {{"ProjectIndex", Idx.path()}, {"Explain", "trace_event"}});
  ASSERT_EQ(R.Diags.size(), 2u) << R.dump();
  EXPECT_EQ(R.Diags[1].Message, Here + "; calls from other files (1, in main.c first) cannot "
                                       "be without LTO, but none of them is hot");
  // Control: an index without the call says it holds none.
  Fn.Calls.clear();
  IndexOnDisk Empty({Fn});
  RunResult E =
      Gate.run(Def, "trace.c", {{"ProjectIndex", Empty.path()}, {"Explain", "trace_event"}});
  ASSERT_EQ(E.Diags.size(), 2u) << E.dump();
  EXPECT_EQ(E.Diags[1].Message, Here + "; the project index holds no call from another file");
}

// SQLite's shape: the hook's declaration is under an #if whose other branch
// makes it a macro, and its switch (a field declared only in that branch,
// spelt through a macro) may not exist there. The calls test an accessor
// macro defined beside the declaration, 0 in the other branch; the fixed
// header and caller compile in both configurations.
TEST(ProjectIndexInChecks, ASwitchUnderAnIfIsTestedThroughAnAccessorMacro) {
  const char *Header = R"c(struct config {
#ifndef UNTESTABLE
	int (*xTest)(int);
#endif
	int other;
};
#define GlobalConfig theConfig
#ifdef UNTESTABLE
# define fault_sim(X) 0
#else
  int fault_sim(int);
#endif
extern struct config theConfig;
)c";
  const char *Caller = R"c(#include "cfg.h"
int run(int n)
{
	int done = 0;
	for (int i = 0; i < n; i++) {
		if (fault_sim(i))
			continue;
		done++;
	}
	return done;
}
)c";
  HookShape H;
  H.Shape = HookShape::Kind::Switch;
  H.Disabled = "0";
  H.Switch = "GlobalConfig.xTest";
  H.Globals = {"theConfig", "GlobalConfig"};
  H.Declarations = {"", ""};
  IndexOnDisk Idx({remoteHook("fault_sim", "/p/src/util.c", H, "sim.c"), calledInALoop("run")});
  RunResult R = Gate.run(Caller, "sim.c", {{"ProjectIndex", Idx.path()}}, {{"cfg.h", Header}});
  ASSERT_TRUE(R.errors().empty()) << R.dump();
  ASSERT_EQ(R.diagsOfLevel("warning").size(), 2u) << R.dump();
  EXPECT_EQ(R.Diags[0], Gate.warning(6, 7, "hot call to hook 'fault_sim', which does nothing "
                                           "unless switched on; test an inline gate first so the "
                                           "disabled case makes no call"));
  EXPECT_NE(R.fixed().find("\t\tif (fault_sim_switch_on() && fault_sim(i))\n"), std::string::npos)
      << R.fixed();
  EXPECT_EQ(R.Files["cfg.h"], R"c(struct config {
#ifndef UNTESTABLE
	int (*xTest)(int);
#endif
	int other;
};
#define GlobalConfig theConfig
#ifdef UNTESTABLE
# define fault_sim(X) 0
#define fault_sim_switch_on() 0
#else
  int fault_sim(int);
/* The switch fault_sim() tests in util.c, for its callers to test before the call. */
#define fault_sim_switch_on() __builtin_expect(!!(GlobalConfig.xTest), 0)
#endif
extern struct config theConfig;
)c");
  // Both configurations compile, and a second run is clean.
  for (std::vector<std::string> Args :
       {std::vector<std::string>{"-std=c11"}, {"-std=c11", "-DUNTESTABLE"}}) {
    RunResult Again = Gate.run(R.fixed(), "sim.c", {{"ProjectIndex", Idx.path()}},
                               {{"cfg.h", R.Files["cfg.h"]}}, Args);
    EXPECT_EQ(Again.dump(), "") << Args.back();
  }
  // Control: the same header without the #if tests the switch directly.
  std::string Plain = Header;
  Plain.replace(Plain.find("#ifdef UNTESTABLE"), Plain.find("extern") - Plain.find("#ifdef UNTESTABLE"),
                "int fault_sim(int);\n");
  RunResult Direct = Gate.run(Caller, "sim.c", {{"ProjectIndex", Idx.path()}}, {{"cfg.h", Plain}});
  EXPECT_NE(Direct.fixed().find("if (__builtin_expect(!!(GlobalConfig.xTest), 0) && fault_sim(i))"),
            std::string::npos)
      << Direct.dump() << Direct.fixed();
}

TEST(ProjectIndexInChecks, AnIndexThatDoesNotReadIsAConfigurationError) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("hotpath-index-test", Dir));
  std::string Path = (Dir + "/index.json").str();
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    OS << "{\"format\": \"hotpath-project-index\", \"version\": 8}";
  }
  RunResult R = Split.run(CheckLen, "bad-index.c", {{"ProjectIndex", Path}});
  ASSERT_EQ(R.errors().size(), 1u) << R.dump();
  EXPECT_EQ(R.errors()[0].Message,
            "hotpath-check-split: ProjectIndex: " + Path +
                ": project index version 8, and this hotpath-tidy reads version 7: rebuild it "
                "(hotpath-tidy --index-only --reindex -p <build-dir>)");
  RunResult Missing = Split.run(CheckLen, "bad-index.c", {{"ProjectIndex", Path + ".none"}});
  ASSERT_EQ(Missing.errors().size(), 1u) << Missing.dump();
  EXPECT_NE(Missing.errors()[0].Message.find(Path + ".none: cannot read the project index"),
            std::string::npos)
      << Missing.dump();
  llvm::sys::fs::remove_directories(Dir);
}

} // namespace
