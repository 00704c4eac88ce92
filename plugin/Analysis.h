//===--- Analysis.h - analysis shared by the hotpath checks -----*- C++ -*-===//
//
// What every hotpath check needs to know about the code, one concern per
// header (each says what it covers):
//   analysis/Reporting.h    which calls report, which statements leave
//   analysis/SideEffects.h  what evaluating an expression does
//   analysis/CallSites.h    how hot a function is, by its call sites
//   analysis/CheckShape.h   recognising a check function
//   analysis/HookShape.h    bodies that make a function a hook
//   analysis/Visibility.h   where declarations live, what is visible where
//   rewrite/Spelling.h      how to spell code at a location, source text
//   rewrite/SourceLayout.h  #if groups, include directives, indentation
//   rewrite/Edits.h         the edits fixes are built from
// This header only gathers them for the checks.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_ANALYSIS_H
#define HOTPATH_TIDY_ANALYSIS_H

#include "analysis/CallSites.h"
#include "analysis/CheckShape.h"
#include "analysis/HookShape.h"
#include "analysis/Reporting.h"
#include "analysis/SideEffects.h"
#include "analysis/Visibility.h"
#include "rewrite/Edits.h"
#include "rewrite/SourceLayout.h"
#include "rewrite/Spelling.h"

#endif // HOTPATH_TIDY_ANALYSIS_H
