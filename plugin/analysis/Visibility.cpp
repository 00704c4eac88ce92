//===--- Visibility.cpp - what can be named where -------------------------===//

#include "analysis/Visibility.h"
#include "source/IncludeGraph.h"
#include "source/Tokens.h"
#include "support/Compat.h"
#include "clang/AST/Expr.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace hotpath {

namespace {
/// Collects the declarations an expression names that are not local to the
/// function it is in.
void collectNamedDecls(const Stmt *S, llvm::SmallVectorImpl<const Decl *> &Out) {
  if (!S)
    return;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
    const ValueDecl *D = Ref->getDecl();
    bool Local = isa<ParmVarDecl>(D) ||
                 (isa<VarDecl>(D) && cast<VarDecl>(D)->isLocalVarDecl());
    if (!Local)
      Out.push_back(D);
  } else if (const auto *ME = dyn_cast<MemberExpr>(S)) {
    if (const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl()))
      Out.push_back(Field); // Its location is inside the record's definition.
  }
  for (const Stmt *Child : S->children())
    collectNamedDecls(Child, Out);
}

void collectTypeDecls(QualType T, llvm::SmallVectorImpl<const Decl *> &Out) {
  while (!T.isNull()) {
    if (const auto *TT = T->getAs<TypedefType>()) {
      Out.push_back(TT->getDecl());
      return;
    }
    if (const TagDecl *Tag = T->getAsTagDecl()) {
      Out.push_back(Tag);
      return;
    }
    if (T->isPointerType() || T->isReferenceType())
      T = T->getPointeeType();
    else if (T->isArrayType())
      T = T->castAsArrayTypeUnsafe()->getElementType();
    else
      return;
  }
}
} // namespace

NamedInCode namedInCode(ArrayRef<const Stmt *> Code, ArrayRef<QualType> Types,
                        const ASTContext &Ctx, const Preprocessor &PP) {
  const SourceManager &SM = Ctx.getSourceManager();
  NamedInCode Out;
  for (const Stmt *S : Code)
    collectNamedDecls(S, Out.Decls);
  for (QualType T : Types)
    collectTypeDecls(T, Out.Decls);
  for (const Stmt *S : Code)
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          collectTypeDecls(VD->getType(), Out.Decls);

  // Macros written in the code: raw-lex its text and look each identifier up.
  for (const Stmt *S : Code) {
    std::optional<std::vector<std::string>> Names =
        identifiersIn(S->getSourceRange(), SM, Ctx.getLangOpts());
    if (!Names) {
      Out.MacrosKnown = false;
      Out.Macros.clear();
      return Out;
    }
    for (const std::string &Name : *Names) {
      IdentifierInfo *II = PP.getIdentifierInfo(Name);
      if (const MacroInfo *MI = PP.getMacroInfo(II); MI && !MI->isBuiltinMacro())
        Out.Macros.emplace_back(II->getName().str(), MI);
    }
  }
  return Out;
}

std::string InvisibleName::text() const {
  switch (What) {
  case Kind::Declaration:
    return "'" + Name + "'";
  case Kind::RecordDefinition:
    return "the definition of '" + Name + "'";
  case Kind::Macro:
    return "macro '" + Name + "'";
  case Kind::Unnamed:
    return "a declaration";
  case Kind::WrittenInMacros:
    return "code written with macros";
  }
  llvm_unreachable("unknown InvisibleName kind");
}

std::optional<InvisibleName>
findInvisibleName(ArrayRef<const Stmt *> Code, ArrayRef<QualType> Types,
                  SourceLocation Point, const ASTContext &Ctx, const Preprocessor &PP,
                  const IncludeGraph &Includes) {
  using K = InvisibleName::Kind;
  const SourceManager &SM = Ctx.getSourceManager();
  NamedInCode Named = namedInCode(Code, Types, Ctx, PP);
  for (const Decl *D : Named.Decls)
    if (!isVisibleFrom(D->getLocation(), Point, SM, Includes)) {
      if (const auto *Field = dyn_cast<FieldDecl>(D))
        return InvisibleName{K::RecordDefinition,
                             compat::recordType(Ctx, Field->getParent()).getAsString()};
      if (const auto *ND = dyn_cast<NamedDecl>(D))
        return InvisibleName{K::Declaration, ND->getQualifiedNameAsString()};
      return InvisibleName{K::Unnamed, ""};
    }
  if (!Named.MacrosKnown)
    return InvisibleName{K::WrittenInMacros, ""};
  for (const auto &[Name, MI] : Named.Macros)
    if (!isVisibleFrom(MI->getDefinitionLoc(), Point, SM, Includes))
      return InvisibleName{K::Macro, Name};
  return std::nullopt;
}

} // namespace hotpath
