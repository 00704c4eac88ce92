//===--- index/ProjectIndex.cpp - the whole-project index -----------------===//
//
// JSON with a table of file names: every location names its file by its
// position in "files". Paths are most of the bytes otherwise (a call site's
// path is ~60 of its ~90 bytes on redis), and the checks parse the index in
// every TU they check.
//
//===----------------------------------------------------------------------===//

#include "index/ProjectIndex.h"
#include "support/AtomicFile.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdio>
#include <cstring>
#include <mutex>
#include <sqlite3.h>
#include <set>
#include <tuple>

namespace hotpath::index {

bool Location::operator<(const Location &O) const {
  return std::tie(File, Line, Col) < std::tie(O.File, O.Line, O.Col);
}

std::string CallSite::key() const {
  std::string K;
  llvm::raw_string_ostream OS(K);
  OS << Loc.File << ':' << Loc.Line << ':' << Loc.Col << ':' << Caller;
  for (const auto &[I, V] : ConstantArgs)
    OS << ':' << I << '=' << V;
  return OS.str();
}

namespace {

const char *kindName(HookShape::Kind K) {
  switch (K) {
  case HookShape::Kind::Empty:
    return "empty";
  case HookShape::Kind::Constant:
    return "constant";
  case HookShape::Kind::Switch:
    return "switch";
  }
  return "empty";
}

//===----------------------------------------------------------------------===//
// Writing.
//===----------------------------------------------------------------------===//

class Writer {
public:
  explicit Writer(const IndexFile &F) : F(F) {
    // The file table first: every path the records name, sorted.
    std::set<std::string> Names(F.TUs.begin(), F.TUs.end());
    for (const Function &Fn : F.Functions) {
      for (const Definition &D : Fn.Definitions) {
        Names.insert(D.Loc.File);
        Names.insert(D.TU);
      }
      for (const Location &L : Fn.Declarations)
        Names.insert(L.File);
      for (const CallSite &C : Fn.Calls)
        Names.insert(C.Loc.File);
    }
    for (const AssertUse &U : F.AssertUses) {
      Names.insert(U.Definition.File);
      Names.insert(U.Use.File);
    }
    if (F.Key)
      for (const InputFile &I : F.Key->Inputs)
        Names.insert(I.File);
    Files.assign(Names.begin(), Names.end());
    for (size_t I = 0; I < Files.size(); ++I)
      Id[Files[I]] = I;
  }

  void write(llvm::raw_ostream &OS) {
    llvm::json::OStream J(OS);
    J.object([&] {
      J.attribute("format", FormatName);
      J.attribute("version", static_cast<int64_t>(FormatVersion));
      J.attribute("kind", F.K == IndexFile::Kind::Shard ? "shard" : "index");
      J.attributeArray("files", [&] {
        for (const std::string &Name : Files)
          J.value(Name);
      });
      J.attributeArray("tus", [&] {
        for (const std::string &TU : F.TUs)
          J.value(id(TU));
      });
      if (F.Key)
        J.attributeObject("key", [&] {
          J.attribute("command", F.Key->Command);
          J.attributeArray("inputs", [&] {
            for (const InputFile &I : F.Key->Inputs)
              J.object([&] {
                J.attribute("file", id(I.File));
                J.attribute("size", static_cast<int64_t>(I.Size));
                J.attribute("mtime", I.MTime);
                J.attribute("hash", I.Hash);
              });
          });
        });
      if (F.Errors)
        J.attribute("errors", static_cast<int64_t>(F.Errors));
      J.attributeArray("functions", [&] {
        for (const Function &Fn : F.Functions)
          function(J, Fn);
      });
      if (!F.AssertUses.empty())
        J.attributeArray("assert_uses", [&] {
          for (const AssertUse &U : F.AssertUses)
            J.object([&] {
              J.attribute("macro", U.Macro);
              place(J, "definition", U.Definition);
              place(J, "use", U.Use);
              J.attribute("why", U.Why);
            });
        });
    });
  }

private:
  int64_t id(const std::string &Name) const { return static_cast<int64_t>(Id.lookup(Name)); }

  void at(llvm::json::OStream &J, const Location &L) { place(J, "at", L); }

  void place(llvm::json::OStream &J, llvm::StringRef Key, const Location &L) {
    J.attributeArray(Key, [&] {
      J.value(id(L.File));
      J.value(static_cast<int64_t>(L.Line));
      J.value(static_cast<int64_t>(L.Col));
    });
  }

  void function(llvm::json::OStream &J, const Function &Fn) {
    J.object([&] {
      J.attribute("usr", Fn.USR);
      J.attribute("name", Fn.Name);
      if (!Fn.Definitions.empty())
        J.attributeArray("definitions", [&] {
          for (const Definition &D : Fn.Definitions)
            J.object([&] {
              at(J, D.Loc);
              J.attribute("end_line", static_cast<int64_t>(D.EndLine));
              J.attribute("tu", id(D.TU));
            });
        });
      if (!Fn.Declarations.empty())
        J.attributeArray("declarations", [&] {
          for (const Location &L : Fn.Declarations)
            J.object([&] { at(J, L); });
        });
      if (Fn.AddressTaken)
        J.attribute("address_taken", true);
      if (Fn.Hook)
        J.attributeObject("hook", [&] {
          J.attribute("shape", kindName(Fn.Hook->Shape));
          if (!Fn.Hook->Disabled.empty())
            J.attribute("disabled", Fn.Hook->Disabled);
          if (!Fn.Hook->Switch.empty())
            J.attribute("switch", Fn.Hook->Switch);
          if (!Fn.Hook->Globals.empty())
            J.attributeArray("globals", [&] {
              for (const std::string &G : Fn.Hook->Globals)
                J.value(G);
            });
          if (!Fn.Hook->Declarations.empty())
            J.attributeArray("declarations", [&] {
              for (const std::string &D : Fn.Hook->Declarations)
                J.value(D);
            });
          if (!Fn.Hook->Marker.empty())
            J.attribute("marker", Fn.Hook->Marker);
        });
      if (Fn.NotHook)
        J.attribute("not_hook", true);
      if (Fn.Pure)
        J.attribute("pure", true);
      if (!Fn.Impure.empty())
        J.attribute("impure", Fn.Impure);
      if (!Fn.Calls.empty())
        J.attributeArray("calls", [&] {
          for (const CallSite &C : Fn.Calls)
            call(J, C);
        });
    });
  }

  void call(llvm::json::OStream &J, const CallSite &C) {
    J.object([&] {
      at(J, C.Loc);
      J.attribute("caller", C.Caller);
      if (!C.CallerUSR.empty())
        J.attribute("caller_usr", C.CallerUSR);
      if (C.Count != 1)
        J.attribute("count", static_cast<int64_t>(C.Count));
      if (C.InLoop)
        J.attribute("loop", true);
      if (C.Loops > 1)
        J.attribute("loops", static_cast<int64_t>(C.Loops));
      if (!C.Accessor.empty())
        J.attribute("accessor", C.Accessor);
      if (C.Cold)
        J.attribute("cold", true);
      if (C.Branches)
        J.attribute("branches", static_cast<int64_t>(C.Branches));
      if (!C.Macros.empty())
        J.attributeArray("macros", [&] {
          for (const std::string &M : C.Macros)
            J.value(M);
        });
      if (!C.ConstantArgs.empty())
        J.attributeArray("args", [&] {
          for (const auto &[I, V] : C.ConstantArgs)
            J.array([&] {
              J.value(static_cast<int64_t>(I));
              J.value(V);
            });
        });
    });
  }

  const IndexFile &F;
  std::vector<std::string> Files;
  llvm::StringMap<size_t> Id;
};

//===----------------------------------------------------------------------===//
// Reading: every field checked, every error with its path in the document.
//===----------------------------------------------------------------------===//

class Reader {
public:
  explicit Reader(llvm::StringRef Name) : Name(Name.str()) {}

  llvm::Expected<IndexFile> read(const llvm::json::Value &V) {
    IndexFile F;
    const llvm::json::Object *O = V.getAsObject();
    if (!O)
      return fail("the document is not a JSON object");
    std::optional<llvm::StringRef> Format = O->getString("format");
    if (!Format || *Format != FormatName)
      return fail("not a hotpath-tidy project index (its \"format\" is not \"" +
                  std::string(FormatName) + "\")");
    std::optional<int64_t> Version = O->getInteger("version");
    if (!Version)
      return fail("\"version\" is missing or not an integer");
    if (*Version < FormatVersion)
      return llvm::make_error<OlderVersionError>(
          Name + ": project index version " + std::to_string(*Version) +
              ", and this hotpath-tidy reads version " + std::to_string(FormatVersion) +
              ": rebuild it (hotpath-tidy --index-only --reindex -p <build-dir>)",
          *Version);
    if (*Version != FormatVersion)
      return fail("project index version " + std::to_string(*Version) +
                  ", and this hotpath-tidy reads version " + std::to_string(FormatVersion) +
                  ": rebuild it (hotpath-tidy --index-only --reindex -p <build-dir>)");
    std::optional<llvm::StringRef> Kind = O->getString("kind");
    if (!Kind || (*Kind != "shard" && *Kind != "index"))
      return fail("\"kind\" is not \"shard\" or \"index\"");
    F.K = *Kind == "shard" ? IndexFile::Kind::Shard : IndexFile::Kind::Index;

    const llvm::json::Array *FilesA = O->getArray("files");
    if (!FilesA)
      return fail("\"files\" is missing or not an array");
    for (size_t I = 0; I < FilesA->size(); ++I) {
      std::optional<llvm::StringRef> S = (*FilesA)[I].getAsString();
      if (!S)
        return fail("files[" + std::to_string(I) + "] is not a string");
      Files.push_back(S->str());
    }
    if (!fileList(*O, "tus", "tus", F.TUs))
      return error();
    if (const llvm::json::Value *K = O->get("key")) {
      ShardKey Key;
      if (!key(*K, Key))
        return error();
      F.Key = std::move(Key);
    }
    if (!optUnsigned(*O, "errors", "errors", F.Errors))
      return error();
    const llvm::json::Array *Fns = O->getArray("functions");
    if (!Fns)
      return fail("\"functions\" is missing or not an array");
    F.Functions.reserve(Fns->size());
    for (size_t I = 0; I < Fns->size(); ++I) {
      Function Fn;
      if (!function((*Fns)[I], "functions[" + std::to_string(I) + "]", Fn))
        return error();
      F.Functions.push_back(std::move(Fn));
    }
    if (const llvm::json::Value *Uses = O->get("assert_uses")) {
      const llvm::json::Array *A = Uses->getAsArray();
      if (!A)
        return fail("\"assert_uses\" is not an array");
      for (size_t I = 0; I < A->size(); ++I) {
        AssertUse U;
        if (!assertUse((*A)[I], "assert_uses[" + std::to_string(I) + "]", U))
          return error();
        F.AssertUses.push_back(std::move(U));
      }
    }
    return F;
  }

  llvm::Error fail(const std::string &Msg) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: %s", Name.c_str(),
                                   Msg.c_str());
  }

private:
  llvm::Error error() { return fail(Err); }
  bool bad(const std::string &Where, const std::string &What) {
    Err = Where + ": " + What;
    return false;
  }

  const llvm::json::Object *object(const llvm::json::Value &V, const std::string &Where) {
    const llvm::json::Object *O = V.getAsObject();
    if (!O)
      bad(Where, "not an object");
    return O;
  }
  bool str(const llvm::json::Object &O, llvm::StringRef K, const std::string &Where,
           std::string &Out, bool Required) {
    const llvm::json::Value *V = O.get(K);
    if (!V)
      return !Required || bad(Where, "\"" + K.str() + "\" is missing");
    std::optional<llvm::StringRef> S = V->getAsString();
    if (!S)
      return bad(Where + "." + K.str(), "not a string");
    Out = S->str();
    return true;
  }
  bool boolean(const llvm::json::Object &O, llvm::StringRef K, const std::string &Where,
               bool &Out) {
    const llvm::json::Value *V = O.get(K);
    if (!V)
      return true;
    std::optional<bool> B = V->getAsBoolean();
    if (!B)
      return bad(Where + "." + K.str(), "not true or false");
    Out = *B;
    return true;
  }
  bool integer(const llvm::json::Value &V, const std::string &Where, int64_t &Out) {
    std::optional<int64_t> I = V.getAsInteger();
    if (!I)
      return bad(Where, "not an integer");
    Out = *I;
    return true;
  }
  bool optUnsigned(const llvm::json::Object &O, llvm::StringRef K, const std::string &Where,
                   unsigned &Out) {
    const llvm::json::Value *V = O.get(K);
    if (!V)
      return true;
    int64_t I;
    if (!integer(*V, Where, I))
      return false;
    if (I < 0 || I > UINT32_MAX)
      return bad(Where, "out of range");
    Out = static_cast<unsigned>(I);
    return true;
  }
  bool fileRef(const llvm::json::Value &V, const std::string &Where, std::string &Out) {
    int64_t I;
    if (!integer(V, Where, I))
      return false;
    if (I < 0 || static_cast<size_t>(I) >= Files.size())
      return bad(Where, "file number " + std::to_string(I) + " is not in \"files\"");
    Out = Files[I];
    return true;
  }
  bool fileList(const llvm::json::Object &O, llvm::StringRef K, const std::string &Where,
                std::vector<std::string> &Out) {
    const llvm::json::Array *A = O.getArray(K);
    if (!A)
      return bad(Where, "missing or not an array");
    for (size_t I = 0; I < A->size(); ++I) {
      std::string S;
      if (!fileRef((*A)[I], Where + "[" + std::to_string(I) + "]", S))
        return false;
      Out.push_back(std::move(S));
    }
    return true;
  }
  bool strings(const llvm::json::Object &O, llvm::StringRef K, const std::string &Where,
               std::vector<std::string> &Out) {
    const llvm::json::Value *V = O.get(K);
    if (!V)
      return true;
    const llvm::json::Array *A = V->getAsArray();
    if (!A)
      return bad(Where + "." + K.str(), "not an array");
    for (size_t I = 0; I < A->size(); ++I) {
      std::optional<llvm::StringRef> S = (*A)[I].getAsString();
      if (!S)
        return bad(Where + "." + K.str() + "[" + std::to_string(I) + "]", "not a string");
      Out.push_back(S->str());
    }
    return true;
  }
  bool location(const llvm::json::Object &O, const std::string &Where, Location &L,
                llvm::StringRef Key = "at") {
    std::string At = Where + "." + Key.str();
    const llvm::json::Array *A = O.getArray(Key);
    if (!A || A->size() != 3)
      return bad(At, "not [file, line, column]");
    int64_t Line, Col;
    if (!fileRef((*A)[0], At + "[0]", L.File) || !integer((*A)[1], At + "[1]", Line) ||
        !integer((*A)[2], At + "[2]", Col))
      return false;
    if (Line < 1 || Col < 1 || Line > UINT32_MAX || Col > UINT32_MAX)
      return bad(At, "line and column must be positive");
    L.Line = static_cast<unsigned>(Line);
    L.Col = static_cast<unsigned>(Col);
    return true;
  }

  bool assertUse(const llvm::json::Value &V, const std::string &Where, AssertUse &U) {
    const llvm::json::Object *O = object(V, Where);
    return O && str(*O, "macro", Where, U.Macro, true) &&
           location(*O, Where, U.Definition, "definition") && location(*O, Where, U.Use, "use") &&
           str(*O, "why", Where, U.Why, true);
  }

  bool key(const llvm::json::Value &V, ShardKey &K) {
    const llvm::json::Object *O = object(V, "key");
    if (!O || !str(*O, "command", "key", K.Command, true))
      return false;
    const llvm::json::Array *A = O->getArray("inputs");
    if (!A)
      return bad("key.inputs", "missing or not an array");
    for (size_t I = 0; I < A->size(); ++I) {
      std::string Where = "key.inputs[" + std::to_string(I) + "]";
      const llvm::json::Object *In = object((*A)[I], Where);
      if (!In)
        return false;
      InputFile F;
      int64_t Size, MTime;
      const llvm::json::Value *FileV = In->get("file"), *SizeV = In->get("size"),
                              *MTimeV = In->get("mtime");
      if (!FileV || !SizeV || !MTimeV)
        return bad(Where, "needs \"file\", \"size\", \"mtime\" and \"hash\"");
      if (!fileRef(*FileV, Where + ".file", F.File) || !integer(*SizeV, Where + ".size", Size) ||
          !integer(*MTimeV, Where + ".mtime", MTime) || !str(*In, "hash", Where, F.Hash, true))
        return false;
      F.Size = static_cast<uint64_t>(Size);
      F.MTime = MTime;
      K.Inputs.push_back(std::move(F));
    }
    return true;
  }

  bool hook(const llvm::json::Value &V, const std::string &Where, HookShape &H) {
    const llvm::json::Object *O = object(V, Where);
    std::string Shape;
    if (!O || !str(*O, "shape", Where, Shape, true))
      return false;
    if (Shape == "empty")
      H.Shape = HookShape::Kind::Empty;
    else if (Shape == "constant")
      H.Shape = HookShape::Kind::Constant;
    else if (Shape == "switch")
      H.Shape = HookShape::Kind::Switch;
    else
      return bad(Where + ".shape", "'" + Shape + "' is not empty, constant or switch");
    return str(*O, "disabled", Where, H.Disabled, false) &&
           str(*O, "switch", Where, H.Switch, false) && strings(*O, "globals", Where, H.Globals) &&
           strings(*O, "declarations", Where, H.Declarations) &&
           str(*O, "marker", Where, H.Marker, false);
  }

  bool call(const llvm::json::Value &V, const std::string &Where, CallSite &C) {
    const llvm::json::Object *O = object(V, Where);
    if (!O || !location(*O, Where, C.Loc) || !str(*O, "caller", Where, C.Caller, true) ||
        !optUnsigned(*O, "count", Where + ".count", C.Count) ||
        !boolean(*O, "loop", Where, C.InLoop) || !boolean(*O, "cold", Where, C.Cold) ||
        !str(*O, "caller_usr", Where, C.CallerUSR, false) ||
        !optUnsigned(*O, "loops", Where + ".loops", C.Loops) ||
        !optUnsigned(*O, "branches", Where + ".branches", C.Branches) ||
        !str(*O, "accessor", Where, C.Accessor, false) || !strings(*O, "macros", Where, C.Macros))
      return false;
    if (C.InLoop && C.Loops == 0)
      C.Loops = 1;
    if (const llvm::json::Value *Args = O->get("args")) {
      const llvm::json::Array *A = Args->getAsArray();
      if (!A)
        return bad(Where + ".args", "not an array");
      for (size_t I = 0; I < A->size(); ++I) {
        std::string W = Where + ".args[" + std::to_string(I) + "]";
        const llvm::json::Array *Pair = (*A)[I].getAsArray();
        int64_t Index, Value;
        if (!Pair || Pair->size() != 2)
          return bad(W, "not [parameter, value]");
        if (!integer((*Pair)[0], W + "[0]", Index) || !integer((*Pair)[1], W + "[1]", Value))
          return false;
        if (Index < 0 || Index > UINT16_MAX)
          return bad(W + "[0]", "not a parameter number");
        C.ConstantArgs.push_back({static_cast<unsigned>(Index), Value});
      }
    }
    return true;
  }

  bool function(const llvm::json::Value &V, const std::string &Where, Function &Fn) {
    const llvm::json::Object *O = object(V, Where);
    if (!O || !str(*O, "usr", Where, Fn.USR, true) || !str(*O, "name", Where, Fn.Name, true) ||
        !boolean(*O, "address_taken", Where, Fn.AddressTaken) ||
        !boolean(*O, "not_hook", Where, Fn.NotHook) || !boolean(*O, "pure", Where, Fn.Pure) ||
        !str(*O, "impure", Where, Fn.Impure, false))
      return false;
    if (Fn.Pure && !Fn.Impure.empty())
      return bad(Where, "\"pure\" and \"impure\" together");
    auto Each = [&](llvm::StringRef K, auto &&Body) {
      const llvm::json::Value *A = O->get(K);
      if (!A)
        return true;
      const llvm::json::Array *Arr = A->getAsArray();
      if (!Arr)
        return bad(Where + "." + K.str(), "not an array");
      for (size_t I = 0; I < Arr->size(); ++I)
        if (!Body((*Arr)[I], Where + "." + K.str() + "[" + std::to_string(I) + "]"))
          return false;
      return true;
    };
    bool Ok = Each("definitions", [&](const llvm::json::Value &D, const std::string &W) {
      const llvm::json::Object *DO = object(D, W);
      Definition Def;
      const llvm::json::Value *TU = DO ? DO->get("tu") : nullptr;
      if (!DO || !location(*DO, W, Def.Loc) || !optUnsigned(*DO, "end_line", W + ".end_line", Def.EndLine))
        return false;
      if (!TU)
        return bad(W, "\"tu\" is missing");
      if (!fileRef(*TU, W + ".tu", Def.TU))
        return false;
      Fn.Definitions.push_back(std::move(Def));
      return true;
    });
    Ok = Ok && Each("declarations", [&](const llvm::json::Value &D, const std::string &W) {
      const llvm::json::Object *DO = object(D, W);
      Location L;
      if (!DO || !location(*DO, W, L))
        return false;
      Fn.Declarations.push_back(std::move(L));
      return true;
    });
    if (!Ok)
      return false;
    if (const llvm::json::Value *H = O->get("hook")) {
      HookShape Shape;
      if (!hook(*H, Where + ".hook", Shape))
        return false;
      Fn.Hook = std::move(Shape);
    }
    return Each("calls", [&](const llvm::json::Value &C, const std::string &W) {
      CallSite Site;
      if (!call(C, W, Site))
        return false;
      Fn.Calls.push_back(std::move(Site));
      return true;
    });
  }

  std::string Name;
  std::string Err;
  std::vector<std::string> Files;
};

template <typename T, typename Less, typename Same>
void sortUnique(std::vector<T> &V, Less L, Same S) {
  llvm::stable_sort(V, L);
  V.erase(std::unique(V.begin(), V.end(), S), V.end());
}

/// Call sites by key, the larger count winning (see mergeShards).
void mergeCalls(std::vector<CallSite> &Calls) {
  std::map<std::string, size_t> ByKey;
  std::vector<CallSite> Out;
  for (CallSite &C : Calls) {
    auto [It, New] = ByKey.try_emplace(C.key(), Out.size());
    if (New)
      Out.push_back(std::move(C));
    else
      Out[It->second].Count = std::max(Out[It->second].Count, C.Count);
  }
  llvm::stable_sort(Out, [](const CallSite &A, const CallSite &B) { return A.Loc < B.Loc; });
  Calls = std::move(Out);
}

void normaliseFunction(Function &Fn) {
  sortUnique(
      Fn.Definitions,
      [](const Definition &A, const Definition &B) {
        return std::tie(A.Loc, A.TU) < std::tie(B.Loc, B.TU);
      },
      [](const Definition &A, const Definition &B) { return A.Loc == B.Loc; });
  sortUnique(
      Fn.Declarations, [](const Location &A, const Location &B) { return A < B; },
      [](const Location &A, const Location &B) { return A == B; });
  for (CallSite &C : Fn.Calls) {
    llvm::sort(C.ConstantArgs);
    llvm::sort(C.Macros);
    C.Macros.erase(std::unique(C.Macros.begin(), C.Macros.end()), C.Macros.end());
  }
}

} // namespace

std::string toJSON(const IndexFile &F) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  Writer(F).write(OS);
  OS << "\n";
  return OS.str();
}

llvm::Expected<IndexFile> parseIndexFile(llvm::StringRef Text, llvm::StringRef Name) {
  Reader R(Name);
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Text);
  if (!V)
    return R.fail("not valid JSON: " + llvm::toString(V.takeError()));
  return R.read(*V);
}

char OlderVersionError::ID = 0;

llvm::Expected<IndexFile> readIndexFile(llvm::StringRef Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return llvm::createStringError(Buf.getError(), "%s: cannot read the project index: %s",
                                   Path.str().c_str(), Buf.getError().message().c_str());
  return parseIndexFile((*Buf)->getBuffer(), Path);
}

namespace {

/// \p E, said as the project index's: "PATH: cannot write the project
/// index: REASON".
llvm::Error indexWriteError(llvm::StringRef Path, llvm::Error E) {
  std::error_code EC = llvm::errorToErrorCode(std::move(E));
  return llvm::createStringError(EC, "%s: cannot write the project index: %s",
                                 Path.str().c_str(), EC.message().c_str());
}

/// Written whole or not at all (support/AtomicFile.h): a reader never sees
/// half a file, and an interrupted run leaves the old one.
llvm::Error writeAtomically(llvm::StringRef Path,
                            llvm::function_ref<void(llvm::raw_ostream &)> Write) {
  if (llvm::Error E = hotpath::writeFileAtomically(Path, Write))
    return indexWriteError(Path, std::move(E));
  return llvm::Error::success();
}

} // namespace

llvm::Error writeIndexFile(llvm::StringRef Path, const IndexFile &F) {
  return writeAtomically(Path, [&](llvm::raw_ostream &OS) {
    Writer(F).write(OS);
    OS << "\n";
  });
}

void normalise(IndexFile &F) {
  // In place: a shard's functions and call sites are unique already (the
  // builder counts a key's calls), so only the order is made canonical.
  // Merging a shard with itself cost a third of the shard builder's time.
  llvm::sort(F.TUs);
  F.TUs.erase(std::unique(F.TUs.begin(), F.TUs.end()), F.TUs.end());
  llvm::sort(F.Functions, [](const Function &A, const Function &B) { return A.USR < B.USR; });
  sortUnique(F.AssertUses, std::less<AssertUse>(), std::equal_to<AssertUse>());
  for (Function &Fn : F.Functions) {
    normaliseFunction(Fn);
    llvm::stable_sort(Fn.Calls, [](const CallSite &A, const CallSite &B) { return A.Loc < B.Loc; });
  }
}

IndexFile mergeShards(llvm::ArrayRef<IndexFile> Shards) {
  IndexFile Out;
  Out.K = IndexFile::Kind::Index;
  std::map<std::string, Function> ByUSR;
  // Per function: the hook shapes its definitions were seen with.
  for (const IndexFile &S : Shards) {
    Out.TUs.insert(Out.TUs.end(), S.TUs.begin(), S.TUs.end());
    llvm::append_range(Out.AssertUses, S.AssertUses);
    for (const Function &Fn : S.Functions) {
      auto [It, New] = ByUSR.try_emplace(Fn.USR);
      Function &M = It->second;
      if (New) {
        M.USR = Fn.USR;
        M.Name = Fn.Name;
      }
      M.Definitions.insert(M.Definitions.end(), Fn.Definitions.begin(), Fn.Definitions.end());
      M.Declarations.insert(M.Declarations.end(), Fn.Declarations.begin(),
                            Fn.Declarations.end());
      M.AddressTaken |= Fn.AddressTaken;
      // A hook only when every body seen is one, and all the same.
      if (Fn.NotHook || (Fn.Hook && M.Hook && *Fn.Hook != *M.Hook)) {
        M.NotHook = true;
        M.Hook.reset();
      } else if (Fn.Hook && !M.NotHook) {
        M.Hook = Fn.Hook;
      }
      // Pure only when every body seen is; the first reason otherwise.
      if (!Fn.Impure.empty()) {
        M.Pure = false;
        if (M.Impure.empty())
          M.Impure = Fn.Impure;
      } else if (Fn.Pure && M.Impure.empty()) {
        M.Pure = true;
      }
      M.Calls.insert(M.Calls.end(), Fn.Calls.begin(), Fn.Calls.end());
    }
  }
  llvm::sort(Out.TUs);
  Out.TUs.erase(std::unique(Out.TUs.begin(), Out.TUs.end()), Out.TUs.end());
  // A header's use is seen by every TU that compiles it: once.
  sortUnique(Out.AssertUses, std::less<AssertUse>(), std::equal_to<AssertUse>());
  for (auto &[USR, Fn] : ByUSR) {
    normaliseFunction(Fn);
    mergeCalls(Fn.Calls);
    Out.Functions.push_back(std::move(Fn));
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// Key files.
//===----------------------------------------------------------------------===//

std::string toJSON(const KeyFile &K) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  llvm::json::OStream J(OS);
  J.object([&] {
    J.attribute("format", FormatName);
    J.attribute("version", static_cast<int64_t>(FormatVersion));
    J.attribute("kind", "key");
    J.attribute("tu", K.TU);
    J.attribute("command", K.Key.Command);
    J.attribute("records", K.Records);
    J.attributeArray("inputs", [&] {
      for (const InputFile &I : K.Key.Inputs)
        J.object([&] {
          J.attribute("file", I.File);
          J.attribute("size", static_cast<int64_t>(I.Size));
          J.attribute("mtime", I.MTime);
          J.attribute("hash", I.Hash);
        });
    });
  });
  OS << "\n";
  return OS.str();
}

namespace {

/// The version check every index file, key and store shares: an older one
/// is an OlderVersionError (a cache to rebuild), any other an error.
llvm::Error checkVersion(llvm::StringRef Name, std::optional<int64_t> Version) {
  auto Fail = [&](const std::string &Msg) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: %s", Name.str().c_str(),
                                   Msg.c_str());
  };
  if (!Version)
    return Fail("\"version\" is missing or not an integer");
  std::string Msg = "project index version " + std::to_string(*Version) +
                    ", and this hotpath-tidy reads version " + std::to_string(FormatVersion) +
                    ": rebuild it (hotpath-tidy --index-only --reindex -p <build-dir>)";
  if (*Version < FormatVersion)
    return llvm::make_error<OlderVersionError>(Name.str() + ": " + Msg, *Version);
  if (*Version != FormatVersion)
    return Fail(Msg);
  return llvm::Error::success();
}

} // namespace

namespace {

/// A scanner for the one layout toJSON(KeyFile) writes, with no escapes in
/// its strings: a kernel TU's key lists ~600 read files (~90 KB), and
/// llvm::json::parse builds an object per file, which made checking 120
/// shards' keys cost 1.8 s of CPU per run. Anything else, an older version
/// or a hand-edited key included, is left to the general parser (nullopt),
/// which also says what is wrong.
class KeyScanner {
public:
  explicit KeyScanner(llvm::StringRef Text) : Rest(Text) {}

  std::optional<KeyFile> scan() {
    KeyFile K;
    std::string Head = "{\"format\":\"" + std::string(FormatName) + "\",\"version\":" +
                       std::to_string(FormatVersion) + ",\"kind\":\"key\",\"tu\":\"";
    if (!literal(Head) || !string(K.TU) || !literal(",\"command\":\"") ||
        !string(K.Key.Command) || !literal(",\"records\":\"") || !string(K.Records) ||
        !literal(",\"inputs\":["))
      return std::nullopt;
    bool First = true;
    while (!literal("]}")) {
      if (!First && !literal(","))
        return std::nullopt;
      First = false;
      InputFile I;
      int64_t Size = 0;
      if (!literal("{\"file\":\"") || !string(I.File) || !literal(",\"size\":") ||
          !integer(Size) || Size < 0 || !literal(",\"mtime\":") || !integer(I.MTime) ||
          !literal(",\"hash\":\"") || !string(I.Hash) || !literal("}"))
        return std::nullopt;
      I.Size = static_cast<uint64_t>(Size);
      K.Key.Inputs.push_back(std::move(I));
    }
    if (!Rest.trim().empty())
      return std::nullopt;
    return K;
  }

private:
  bool literal(llvm::StringRef L) { return Rest.consume_front(L); }
  /// The rest of a string whose opening quote is consumed; no escapes.
  bool string(std::string &Out) {
    size_t End = Rest.find_first_of("\"\\");
    if (End == llvm::StringRef::npos || Rest[End] != '"')
      return false;
    Out = Rest.take_front(End).str();
    Rest = Rest.drop_front(End + 1);
    return true;
  }
  bool integer(int64_t &Out) {
    size_t Len = Rest.starts_with("-") ? 1 : 0;
    while (Len < Rest.size() && llvm::isDigit(Rest[Len]))
      ++Len;
    if (Rest.take_front(Len).getAsInteger(10, Out))
      return false;
    Rest = Rest.drop_front(Len);
    return true;
  }

  llvm::StringRef Rest;
};

} // namespace

llvm::Expected<KeyFile> parseKeyFile(llvm::StringRef Text, llvm::StringRef Name) {
  if (std::optional<KeyFile> K = KeyScanner(Text).scan())
    return std::move(*K);
  auto Fail = [&](const std::string &Msg) -> llvm::Error {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: %s", Name.str().c_str(),
                                   Msg.c_str());
  };
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Text);
  if (!V)
    return Fail("not valid JSON: " + llvm::toString(V.takeError()));
  const llvm::json::Object *O = V->getAsObject();
  if (!O || O->getString("format") != std::optional<llvm::StringRef>(FormatName))
    return Fail("not a hotpath-tidy project index (its \"format\" is not \"" +
                std::string(FormatName) + "\")");
  if (llvm::Error E = checkVersion(Name, O->getInteger("version")))
    return E;
  if (O->getString("kind") != std::optional<llvm::StringRef>("key"))
    return Fail("not a shard's key (its \"kind\" is not \"key\")");
  KeyFile K;
  auto Str = [&](llvm::StringRef Field, std::string &Out) {
    std::optional<llvm::StringRef> S = O->getString(Field);
    if (S)
      Out = S->str();
    return S.has_value();
  };
  if (!Str("tu", K.TU) || !Str("command", K.Key.Command) || !Str("records", K.Records))
    return Fail("\"tu\", \"command\" and \"records\" must be strings");
  const llvm::json::Array *A = O->getArray("inputs");
  if (!A)
    return Fail("\"inputs\" is missing or not an array");
  for (size_t I = 0; I < A->size(); ++I) {
    const llvm::json::Object *In = (*A)[I].getAsObject();
    std::optional<llvm::StringRef> File = In ? In->getString("file") : std::nullopt;
    std::optional<llvm::StringRef> Hash = In ? In->getString("hash") : std::nullopt;
    std::optional<int64_t> Size = In ? In->getInteger("size") : std::nullopt;
    std::optional<int64_t> MTime = In ? In->getInteger("mtime") : std::nullopt;
    if (!File || !Hash || !Size || !MTime)
      return Fail("inputs[" + std::to_string(I) +
                  "]: needs \"file\", \"size\", \"mtime\" and \"hash\"");
    K.Key.Inputs.push_back({File->str(), static_cast<uint64_t>(*Size), *MTime, Hash->str()});
  }
  return K;
}

namespace {

std::string md5Of(llvm::StringRef Text) {
  llvm::MD5 H;
  H.update(Text);
  llvm::MD5::MD5Result R;
  H.final(R);
  return std::string(R.digest());
}

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> readBuffer(llvm::StringRef Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buf =
      llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buf)
    return llvm::createStringError(Buf.getError(), "%s: cannot read the project index: %s",
                                   Path.str().c_str(), Buf.getError().message().c_str());
  return std::move(*Buf);
}

} // namespace

llvm::Expected<KeyFile> readShardKey(llvm::StringRef Path) {
  // Mapped, not read: only the pages of the first line are touched.
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> Buf = readBuffer(Path);
  if (!Buf)
    return Buf.takeError();
  llvm::StringRef Text = (*Buf)->getBuffer();
  return parseKeyFile(Text.substr(0, Text.find('\n')), Path);
}

llvm::Error writeShardFile(llvm::StringRef Path, const IndexFile &Shard, std::string *Records) {
  IndexFile Body = Shard;
  Body.Key.reset();
  std::string Text = toJSON(Body);
  KeyFile K;
  K.TU = Shard.TUs.empty() ? std::string() : Shard.TUs.front();
  if (Shard.Key)
    K.Key = *Shard.Key;
  K.Records = md5Of(Text);
  if (Records)
    *Records = K.Records;
  return writeAtomically(Path, [&](llvm::raw_ostream &OS) { OS << toJSON(K) << Text; });
}

llvm::Error rewriteShardKey(llvm::StringRef Path, const KeyFile &K) {
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> Buf = readBuffer(Path);
  if (!Buf)
    return Buf.takeError();
  llvm::StringRef Text = (*Buf)->getBuffer();
  size_t NL = Text.find('\n');
  llvm::StringRef Body = NL == llvm::StringRef::npos ? llvm::StringRef() : Text.substr(NL + 1);
  return writeAtomically(Path, [&](llvm::raw_ostream &OS) { OS << toJSON(K) << Body; });
}

llvm::Expected<IndexFile> readShardFile(llvm::StringRef Path) {
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> Buf = readBuffer(Path);
  if (!Buf)
    return Buf.takeError();
  llvm::StringRef Text = (*Buf)->getBuffer();
  auto [Head, Body] = Text.split('\n');
  llvm::Expected<KeyFile> K = parseKeyFile(Head, Path);
  if (!K)
    return K.takeError();
  if (md5Of(Body) != K->Records)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "%s: its records are not those its key names (MD5 %s)",
                                   Path.str().c_str(), K->Records.c_str());
  llvm::Expected<IndexFile> F = parseIndexFile(Body, Path);
  if (!F)
    return F.takeError();
  if (F->K != IndexFile::Kind::Shard || F->TUs != std::vector<std::string>{K->TU})
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "%s: not the shard of %s its key names", Path.str().c_str(),
                                   K->TU.c_str());
  F->Key = std::move(K->Key);
  return std::move(*F);
}

//===----------------------------------------------------------------------===//
// The store: SQLite, one row per function (its record as a one-function
// index document), and tables from each key the lookups use to it.
//===----------------------------------------------------------------------===//

namespace {

const char Schema[] =
    "CREATE TABLE meta(name TEXT PRIMARY KEY, value) WITHOUT ROWID;"
    "CREATE TABLE tus(path TEXT PRIMARY KEY, shard TEXT NOT NULL) WITHOUT ROWID;"
    "CREATE TABLE functions(usr TEXT PRIMARY KEY, purity TEXT, hook INTEGER NOT NULL,"
    " record TEXT NOT NULL);"
    "CREATE TABLE definitions(file TEXT, line INTEGER, col INTEGER, usr TEXT NOT NULL,"
    " PRIMARY KEY(file, line, col)) WITHOUT ROWID;"
    "CREATE TABLE declarations(file TEXT, line INTEGER, col INTEGER, usr TEXT NOT NULL,"
    " PRIMARY KEY(file, line, col)) WITHOUT ROWID;"
    "CREATE TABLE assert_uses(file TEXT, line INTEGER, col INTEGER, record TEXT NOT NULL,"
    " PRIMARY KEY(file, line, col)) WITHOUT ROWID;";

/// One prepared statement, finalised with it.
class Stmt {
public:
  Stmt() = default;
  Stmt(sqlite3 *Db, const char *SQL) { sqlite3_prepare_v2(Db, SQL, -1, &S, nullptr); }
  Stmt(Stmt &&O) : S(O.S) { O.S = nullptr; }
  Stmt &operator=(Stmt &&O) {
    std::swap(S, O.S);
    return *this;
  }
  ~Stmt() { sqlite3_finalize(S); }
  explicit operator bool() const { return S != nullptr; }
  Stmt &reset() {
    sqlite3_reset(S);
    sqlite3_clear_bindings(S);
    return *this;
  }
  Stmt &bind(int I, llvm::StringRef Text) {
    sqlite3_bind_text(S, I, Text.data(), static_cast<int>(Text.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Stmt &bind(int I, int64_t V) {
    sqlite3_bind_int64(S, I, V);
    return *this;
  }
  Stmt &bindNull(int I) {
    sqlite3_bind_null(S, I);
    return *this;
  }
  Stmt &bind(const Location &L, int First = 1) {
    return bind(First, L.File).bind(First + 1, int64_t(L.Line)).bind(First + 2, int64_t(L.Col));
  }
  /// SQLITE_ROW, SQLITE_DONE or an error code.
  int step() { return sqlite3_step(S); }
  bool isNull(int I) { return sqlite3_column_type(S, I) == SQLITE_NULL; }
  llvm::StringRef text(int I) {
    const unsigned char *T = sqlite3_column_text(S, I);
    return T ? llvm::StringRef(reinterpret_cast<const char *>(T), sqlite3_column_bytes(S, I))
             : llvm::StringRef();
  }

private:
  sqlite3_stmt *S = nullptr;
};

llvm::Error sqlError(llvm::StringRef Path, llvm::StringRef What, sqlite3 *Db) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: %s: %s",
                                 Path.str().c_str(), What.str().c_str(),
                                 Db ? sqlite3_errmsg(Db) : "out of memory");
}

/// The record of \p Fn as the store keeps it: a one-function document.
std::string recordOf(const Function &Fn) {
  IndexFile One;
  One.K = IndexFile::Kind::Index;
  One.Functions.push_back(Fn);
  return toJSON(One);
}

/// Opens \p Path read-only and checks that it is a store of this version.
llvm::Error openStore(llvm::StringRef Path, sqlite3 *&Db) {
  // Immutable: a store is written beside its path and renamed over it
  // (writeStore), so the file a reader opened never changes. SQLite then
  // takes no lock and does not re-read the header per lookup: on a kernel
  // TU that was 4,000 fcntl calls and 2,000 reads of the same page.
  std::string Uri = "file:";
  for (char C : Path)
    if (C == '%' || C == '?' || C == '#')
      Uri += llvm::formatv("%{0:X-2}", static_cast<unsigned char>(C)).str();
    else
      Uri += C;
  Uri += "?immutable=1";
  if (sqlite3_open_v2(Uri.c_str(), &Db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI,
                      nullptr) != SQLITE_OK)
    return sqlError(Path, "cannot read the project index", Db);
  Stmt Meta(Db, "SELECT value FROM meta WHERE name = ?");
  if (!Meta)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "%s: not a hotpath-tidy project index (%s)",
                                   Path.str().c_str(), sqlite3_errmsg(Db));
  auto Get = [&](llvm::StringRef Name) -> std::optional<std::string> {
    Meta.reset().bind(1, Name);
    if (Meta.step() != SQLITE_ROW)
      return std::nullopt;
    return Meta.text(0).str();
  };
  if (Get("format") != std::optional<std::string>(FormatName))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "%s: not a hotpath-tidy project index (its \"format\" is not "
                                   "\"%s\")",
                                   Path.str().c_str(), static_cast<const char *>(FormatName));
  std::optional<std::string> V = Get("version");
  std::optional<int64_t> Version;
  int64_t N;
  if (V && !llvm::StringRef(*V).getAsInteger(10, N))
    Version = N;
  if (llvm::Error E = checkVersion(Path, Version))
    return E;
  if (Get("kind") != std::optional<std::string>("index"))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "%s: \"kind\" is not \"index\"", Path.str().c_str());
  return llvm::Error::success();
}

/// Whether \p Path begins as an SQLite database does.
bool looksLikeStore(llvm::StringRef Path) {
  static const char Magic[] = "SQLite format 3";
  std::FILE *In = std::fopen(Path.str().c_str(), "rb");
  if (!In)
    return false;
  char Head[sizeof(Magic)] = {};
  size_t N = std::fread(Head, 1, sizeof(Head), In);
  std::fclose(In);
  return N == sizeof(Head) && std::memcmp(Head, Magic, sizeof(Magic)) == 0;
}

} // namespace

llvm::Error writeStore(llvm::StringRef Path, const IndexFile &F,
                       const std::map<std::string, std::string> &Shards) {
  // An empty file beside Path that SQLite fills by its name, then renamed
  // over Path; discarded (removed) on any error.
  llvm::Expected<PendingFile> Tmp = PendingFile::create(Path);
  if (!Tmp)
    return indexWriteError(Path, Tmp.takeError());
  if (llvm::Error E = Tmp->finishWriting())
    return indexWriteError(Path, std::move(E));
  sqlite3 *Db = nullptr;
  auto Fail = [&](llvm::StringRef What) {
    llvm::Error E = sqlError(Path, What, Db);
    sqlite3_close(Db);
    return E;
  };
  if (sqlite3_open_v2(Tmp->tempPath().c_str(), &Db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr) !=
      SQLITE_OK)
    return Fail("cannot write the project index");
  if (sqlite3_exec(Db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN;", nullptr,
                   nullptr, nullptr) != SQLITE_OK ||
      sqlite3_exec(Db, Schema, nullptr, nullptr, nullptr) != SQLITE_OK)
    return Fail("cannot write the project index");
  bool Ok = true;
  auto Run = [&](Stmt &S) {
    Ok = Ok && S.step() == SQLITE_DONE;
    S.reset();
  };
  {
    Stmt Meta(Db, "INSERT INTO meta VALUES (?, ?)");
    for (auto [K, V] : {std::pair<const char *, std::string>{"format", FormatName},
                        {"version", std::to_string(FormatVersion)},
                        {"kind", "index"}}) {
      Meta.bind(1, K).bind(2, V);
      Run(Meta);
    }
    Stmt TU(Db, "INSERT INTO tus VALUES (?, ?)");
    for (const std::string &T : F.TUs) {
      auto It = Shards.find(T);
      TU.bind(1, T).bind(2, It == Shards.end() ? "" : It->second);
      Run(TU);
    }
    Stmt Fn(Db, "INSERT INTO functions VALUES (?, ?, ?, ?)");
    // The first function in USR order keeps a location (as in memory).
    Stmt Def(Db, "INSERT OR IGNORE INTO definitions VALUES (?, ?, ?, ?)");
    Stmt Decl(Db, "INSERT OR IGNORE INTO declarations VALUES (?, ?, ?, ?)");
    for (const Function &Each : F.Functions) {
      Fn.bind(1, Each.USR).bind(3, int64_t(Each.Hook ? 1 : 0)).bind(4, recordOf(Each));
      if (Each.Pure || !Each.Impure.empty())
        Fn.bind(2, Each.Impure);
      else
        Fn.bindNull(2);
      Run(Fn);
      for (const Definition &D : Each.Definitions) {
        Def.bind(D.Loc).bind(4, Each.USR);
        Run(Def);
      }
      for (const Location &L : Each.Declarations) {
        Decl.bind(L).bind(4, Each.USR);
        Run(Decl);
      }
    }
    Stmt Uses(Db, "INSERT INTO assert_uses VALUES (?, ?, ?, ?)");
    for (auto It = F.AssertUses.begin(); It != F.AssertUses.end();) {
      IndexFile Group;
      Group.K = IndexFile::Kind::Index;
      auto End = std::find_if(It, F.AssertUses.end(), [&](const AssertUse &U) {
        return !(U.Definition == It->Definition);
      });
      Group.AssertUses.assign(It, End);
      Uses.bind(It->Definition).bind(4, toJSON(Group));
      Run(Uses);
      It = End;
    }
    Ok = Ok && Meta && TU && Fn && Def && Decl && Uses;
  }
  if (!Ok || sqlite3_exec(Db, "COMMIT;", nullptr, nullptr, nullptr) != SQLITE_OK)
    return Fail("cannot write the project index");
  if (sqlite3_close(Db) != SQLITE_OK) {
    Db = nullptr;
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "%s: cannot write the project index", Path.str().c_str());
  }
  if (llvm::Error E = Tmp->commit())
    return indexWriteError(Path, std::move(E));
  return llvm::Error::success();
}

std::optional<std::map<std::string, std::string>> storedShards(llvm::StringRef Path) {
  if (!looksLikeStore(Path))
    return std::nullopt;
  sqlite3 *Db = nullptr;
  std::optional<std::map<std::string, std::string>> Out;
  if (llvm::Error E = openStore(Path, Db)) {
    llvm::consumeError(std::move(E));
  } else {
    Stmt All(Db, "SELECT path, shard FROM tus");
    Out.emplace();
    int RC;
    while ((RC = All.step()) == SQLITE_ROW)
      (*Out)[All.text(0).str()] = All.text(1).str();
    if (RC != SQLITE_DONE)
      Out.reset();
  }
  sqlite3_close(Db);
  return Out;
}

//===----------------------------------------------------------------------===//
// ProjectIndex.
//===----------------------------------------------------------------------===//

/// An open store and what was read from it: records are read once, and
/// never move (the lookups return pointers to them).
struct ProjectIndex::Store {
  sqlite3 *Db = nullptr;
  std::string Path;
  Stmt ByUSR, Purity, HookQ, ByDef, ByDecl, Uses;
  std::mutex M;
  std::map<std::string, std::unique_ptr<Function>, std::less<>> Functions; // null: none
  std::map<std::string, std::optional<std::string>, std::less<>> Purities;
  std::map<std::string, bool, std::less<>> Hooks;
  std::map<Location, const Function *> Definitions, Declarations;
  std::map<Location, std::vector<AssertUse>> AssertUses;
  bool Whole = false, Reported = false;

  ~Store() {
    ByUSR = Stmt();
    Purity = Stmt();
    HookQ = Stmt();
    ByDef = Stmt();
    ByDecl = Stmt();
    Uses = Stmt();
    sqlite3_close(Db);
  }

  /// A record that does not read: said once, on standard error (a lookup
  /// has no error to return), and taken as absent.
  void corrupt(const std::string &Msg) {
    if (!Reported)
      llvm::errs() << "error: " << Msg << "\n";
    Reported = true;
  }

  std::optional<IndexFile> parse(llvm::StringRef Text, const std::string &What) {
    llvm::Expected<IndexFile> F = parseIndexFile(Text, Path + ": " + What);
    if (!F) {
      corrupt(llvm::toString(F.takeError()));
      return std::nullopt;
    }
    return std::move(*F);
  }

  const Function *function(llvm::StringRef USR) {
    auto It = Functions.find(USR);
    if (It != Functions.end())
      return It->second.get();
    std::unique_ptr<Function> Fn;
    ByUSR.reset().bind(1, USR);
    int RC = ByUSR.step();
    if (RC == SQLITE_ROW) {
      std::optional<IndexFile> F = parse(ByUSR.text(0), "the record of '" + USR.str() + "'");
      if (F && F->Functions.size() == 1)
        Fn = std::make_unique<Function>(std::move(F->Functions.front()));
    } else if (RC != SQLITE_DONE) {
      corrupt(Path + ": " + sqlite3_errmsg(Db));
    }
    ByUSR.reset();
    return Functions.emplace(USR.str(), std::move(Fn)).first->second.get();
  }

  std::optional<std::string> purity(llvm::StringRef USR) {
    auto It = Purities.find(USR);
    if (It != Purities.end())
      return It->second;
    std::optional<std::string> P;
    Purity.reset().bind(1, USR);
    int RC = Purity.step();
    if (RC == SQLITE_ROW && !Purity.isNull(0))
      P = Purity.text(0).str();
    else if (RC != SQLITE_ROW && RC != SQLITE_DONE)
      corrupt(Path + ": " + sqlite3_errmsg(Db));
    Purity.reset();
    return Purities.emplace(USR.str(), std::move(P)).first->second;
  }

  /// Whether \p USR's record has a hook shape, read from its own column:
  /// hook-gate asks it of every function a TU calls, and most records (a
  /// header's inline function called from thousands of sites) need not be
  /// parsed for the answer.
  bool hook(llvm::StringRef USR) {
    auto Known = Functions.find(USR);
    if (Known != Functions.end())
      return Known->second && Known->second->Hook;
    auto It = Hooks.find(USR);
    if (It != Hooks.end())
      return It->second;
    HookQ.reset().bind(1, USR);
    int RC = HookQ.step();
    bool H = RC == SQLITE_ROW && HookQ.text(0) == "1";
    if (RC != SQLITE_ROW && RC != SQLITE_DONE)
      corrupt(Path + ": " + sqlite3_errmsg(Db));
    HookQ.reset();
    return Hooks.emplace(USR.str(), H).first->second;
  }

  const Function *at(bool Definition, const Location &L) {
    auto &Seen = Definition ? Definitions : Declarations;
    auto It = Seen.find(L);
    if (It != Seen.end())
      return It->second;
    Stmt &Q = Definition ? ByDef : ByDecl;
    Q.reset().bind(L);
    std::optional<std::string> USR;
    if (Q.step() == SQLITE_ROW)
      USR = Q.text(0).str();
    Q.reset();
    return Seen.emplace(L, USR ? function(*USR) : nullptr).first->second;
  }

  const std::vector<AssertUse> &usesOf(const Location &L) {
    auto It = AssertUses.find(L);
    if (It != AssertUses.end())
      return It->second;
    std::vector<AssertUse> Found;
    Uses.reset().bind(L);
    if (Uses.step() == SQLITE_ROW)
      if (std::optional<IndexFile> F = parse(Uses.text(0), "the uses of an assert"))
        Found = std::move(F->AssertUses);
    Uses.reset();
    return AssertUses.emplace(L, std::move(Found)).first->second;
  }

  /// Every record, in order.
  void readWhole(IndexFile &F) {
    F.K = IndexFile::Kind::Index;
    Stmt TUs(Db, "SELECT path FROM tus ORDER BY path");
    while (TUs && TUs.step() == SQLITE_ROW)
      F.TUs.push_back(TUs.text(0).str());
    Stmt Fns(Db, "SELECT record FROM functions ORDER BY usr");
    while (Fns && Fns.step() == SQLITE_ROW)
      if (std::optional<IndexFile> One = parse(Fns.text(0), "a function's record"))
        llvm::append_range(F.Functions, std::move(One->Functions));
    Stmt All(Db, "SELECT record FROM assert_uses ORDER BY file, line, col");
    while (All && All.step() == SQLITE_ROW)
      if (std::optional<IndexFile> Group = parse(All.text(0), "the uses of an assert"))
        llvm::append_range(F.AssertUses, std::move(Group->AssertUses));
  }
};

ProjectIndex::ProjectIndex(IndexFile File) : F(std::move(File)) {
  for (size_t I = 0; I < F.Functions.size(); ++I) {
    const Function &Fn = F.Functions[I];
    ByUSR[Fn.USR] = I;
    for (const Definition &D : Fn.Definitions)
      ByDefinition.emplace(D.Loc, I);
    for (const Location &L : Fn.Declarations)
      ByDeclaration.emplace(L, I);
  }
}

ProjectIndex::ProjectIndex(std::unique_ptr<Store> St, std::string P)
    : Path(std::move(P)), S(std::move(St)) {}

ProjectIndex::~ProjectIndex() = default;

const IndexFile &ProjectIndex::file() const {
  if (S) {
    std::lock_guard<std::mutex> Lock(S->M);
    if (!S->Whole)
      S->readWhole(F);
    S->Whole = true;
  }
  return F;
}

const Function *ProjectIndex::lookup(llvm::StringRef USR) const {
  if (S) {
    std::lock_guard<std::mutex> Lock(S->M);
    return S->function(USR);
  }
  auto It = ByUSR.find(USR);
  return It == ByUSR.end() ? nullptr : &F.Functions[It->second];
}

const Function *ProjectIndex::lookupAt(bool Definition, const Location &L) const {
  if (S) {
    std::lock_guard<std::mutex> Lock(S->M);
    return S->at(Definition, L);
  }
  const std::map<Location, size_t> &By = Definition ? ByDefinition : ByDeclaration;
  auto It = By.find(L);
  return It == By.end() ? nullptr : &F.Functions[It->second];
}

std::optional<std::string> ProjectIndex::purityOf(llvm::StringRef USR) const {
  if (S) {
    std::lock_guard<std::mutex> Lock(S->M);
    return S->purity(USR);
  }
  const Function *Fn = lookup(USR);
  if (!Fn || (!Fn->Pure && Fn->Impure.empty()))
    return std::nullopt;
  return Fn->Impure;
}

bool ProjectIndex::hookOf(llvm::StringRef USR) const {
  if (S) {
    std::lock_guard<std::mutex> Lock(S->M);
    return S->hook(USR);
  }
  const Function *Fn = lookup(USR);
  return Fn && Fn->Hook;
}

llvm::ArrayRef<AssertUse> ProjectIndex::usesOf(const Location &Definition) const {
  if (S) {
    std::lock_guard<std::mutex> Lock(S->M);
    return S->usesOf(Definition);
  }
  // Sorted by definition first (normalise, mergeShards).
  auto Begin = llvm::partition_point(
      F.AssertUses, [&](const AssertUse &U) { return U.Definition < Definition; });
  auto End = std::find_if(Begin, F.AssertUses.end(),
                          [&](const AssertUse &U) { return !(U.Definition == Definition); });
  const AssertUse *First = F.AssertUses.data() + (Begin - F.AssertUses.begin());
  return llvm::ArrayRef(First, End - Begin);
}

const Function *ProjectIndex::find(llvm::StringRef USR) const {
  record("find", USR);
  return lookup(USR);
}

std::optional<std::string> ProjectIndex::purity(llvm::StringRef USR) const {
  record("purity", USR);
  return purityOf(USR);
}

bool ProjectIndex::hasHook(llvm::StringRef USR) const {
  record("hook", USR);
  return hookOf(USR);
}

const Function *ProjectIndex::findByDefinition(const Location &Loc) const {
  record("definition", Loc);
  return lookupAt(true, Loc);
}

const Function *ProjectIndex::findByDeclaration(const Location &Loc) const {
  record("declaration", Loc);
  return lookupAt(false, Loc);
}

llvm::ArrayRef<AssertUse> ProjectIndex::assertUsesOf(const Location &Definition) const {
  record("assert-uses", Definition);
  return usesOf(Definition);
}

//===----------------------------------------------------------------------===//
// Recording the reads, and answering them again.
//===----------------------------------------------------------------------===//

void ProjectIndex::recordReads() const {
  if (!Reads)
    Reads = std::make_unique<std::set<std::string>>();
}

std::vector<std::string> ProjectIndex::reads() const {
  return Reads ? std::vector<std::string>(Reads->begin(), Reads->end())
               : std::vector<std::string>();
}

void ProjectIndex::record(llvm::StringRef Kind, llvm::StringRef What) const {
  if (Reads)
    Reads->insert((Kind + "\t" + What).str());
}

void ProjectIndex::record(llvm::StringRef Kind, const Location &L) const {
  if (Reads)
    record(Kind, (L.File + "\t" + llvm::Twine(L.Line) + "\t" + llvm::Twine(L.Col)).str());
}

namespace {

/// A location read back from a read's "<file>\t<line>\t<col>".
std::optional<Location> parseLocation(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  Text.split(Parts, '\t');
  Location L;
  if (Parts.size() != 3 || Parts[1].getAsInteger(10, L.Line) || Parts[2].getAsInteger(10, L.Col))
    return std::nullopt;
  L.File = Parts[0].str();
  return L;
}

std::string functionText(const Function *Fn) {
  if (!Fn)
    return "none";
  IndexFile One;
  One.K = IndexFile::Kind::Index;
  One.Functions.push_back(*Fn);
  return toJSON(One);
}

} // namespace

std::optional<std::string> ProjectIndex::answer(llvm::StringRef Read) const {
  auto [Kind, What] = Read.split('\t');
  if (Kind == "find")
    return functionText(lookup(What));
  if (Kind == "purity") {
    std::optional<std::string> P = purityOf(What);
    if (!P)
      return std::string("none");
    return P->empty() ? std::string("pure") : "impure: " + *P;
  }
  if (Kind == "hook")
    return std::string(hookOf(What) ? "hook" : "none");
  std::optional<Location> L = parseLocation(What);
  if (!L)
    return std::nullopt;
  if (Kind == "definition")
    return functionText(lookupAt(true, *L));
  if (Kind == "declaration")
    return functionText(lookupAt(false, *L));
  if (Kind != "assert-uses")
    return std::nullopt;
  IndexFile Uses;
  Uses.K = IndexFile::Kind::Index;
  Uses.AssertUses = usesOf(*L).vec();
  return toJSON(Uses);
}

std::string ProjectIndex::fileOf(llvm::StringRef Path) {
  llvm::SmallString<256> File(Path);
  if (llvm::sys::fs::is_directory(File))
    llvm::sys::path::append(File, StoreName);
  return std::string(File);
}

llvm::Expected<std::shared_ptr<const ProjectIndex>> ProjectIndex::load(llvm::StringRef Path) {
  llvm::SmallString<256> File(fileOf(Path));
  if (looksLikeStore(File)) {
    auto St = std::make_unique<Store>();
    St->Path = std::string(File);
    if (llvm::Error E = openStore(File, St->Db))
      return E;
    St->ByUSR = Stmt(St->Db, "SELECT record FROM functions WHERE usr = ?");
    St->Purity = Stmt(St->Db, "SELECT purity FROM functions WHERE usr = ?");
    St->HookQ = Stmt(St->Db, "SELECT hook FROM functions WHERE usr = ?");
    St->ByDef = Stmt(St->Db, "SELECT usr FROM definitions WHERE file = ? AND line = ? AND col = ?");
    St->ByDecl =
        Stmt(St->Db, "SELECT usr FROM declarations WHERE file = ? AND line = ? AND col = ?");
    St->Uses =
        Stmt(St->Db, "SELECT record FROM assert_uses WHERE file = ? AND line = ? AND col = ?");
    if (!St->ByUSR || !St->Purity || !St->HookQ || !St->ByDef || !St->ByDecl || !St->Uses)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "%s: not a hotpath-tidy project index (%s)", File.c_str(),
                                     sqlite3_errmsg(St->Db));
    return std::shared_ptr<const ProjectIndex>(
        new ProjectIndex(std::move(St), std::string(File)));
  }
  llvm::Expected<IndexFile> F = readIndexFile(File);
  if (!F)
    return F.takeError();
  if (F->K != IndexFile::Kind::Index)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "%s: a shard of one translation unit, not the merged "
                                   "project index (index.db beside the shards/ directory)",
                                   File.c_str());
  auto Index = std::make_shared<ProjectIndex>(std::move(*F));
  Index->Path = std::string(File);
  return Index;
}

llvm::Expected<std::shared_ptr<const ProjectIndex>>
ProjectIndex::loadCached(llvm::StringRef Path) {
  static std::mutex M;
  static std::map<std::string, std::pair<llvm::sys::TimePoint<>, std::shared_ptr<const ProjectIndex>>>
      Cache;
  llvm::SmallString<256> File(fileOf(Path));
  llvm::sys::fs::file_status St;
  std::lock_guard<std::mutex> Lock(M);
  if (!llvm::sys::fs::status(File, St)) {
    auto It = Cache.find(std::string(File));
    if (It != Cache.end() && It->second.first == St.getLastModificationTime())
      return It->second.second;
  }
  llvm::Expected<std::shared_ptr<const ProjectIndex>> Loaded = load(Path);
  if (Loaded)
    Cache[std::string(File)] = {St.getLastModificationTime(), *Loaded};
  return Loaded;
}

std::string readsFileOf(llvm::StringRef Dir, llvm::StringRef MainFile) {
  llvm::MD5 H;
  H.update(MainFile);
  llvm::MD5::MD5Result R;
  H.final(R);
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, llvm::Twine(R.digest()) + ".reads");
  return std::string(P);
}

llvm::Error writeReads(llvm::StringRef Path, llvm::ArrayRef<std::string> Reads) {
  return writeAtomically(Path, [&](llvm::raw_ostream &OS) {
    for (const std::string &R : Reads)
      OS << R << '\n';
  });
}

} // namespace hotpath::index
