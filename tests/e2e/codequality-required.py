#!/usr/bin/env python3
"""Checks a GitLab Code Quality report (hotpath-tidy --format=codeclimate)
against GitLab's published format (gitlab-code-quality.schema.json, written
from GitLab's table) and, with --results N, that it holds N issues.
Usage: codequality-required.py REPORT.json [--results N]"""
import argparse
import json
import os
import sys

import jsonschema

p = argparse.ArgumentParser()
p.add_argument("report")
p.add_argument("--results", type=int)
a = p.parse_args()
here = os.path.dirname(os.path.abspath(__file__))
try:
    report = json.load(open(a.report))
except (OSError, ValueError) as e:
    sys.exit("%s: %s" % (a.report, e))
schema = json.load(open(os.path.join(here, "gitlab-code-quality.schema.json")))
problems = ["%s: %s" % (list(e.path), e.message)
            for e in jsonschema.Draft7Validator(schema).iter_errors(report)]
if not problems and a.results is not None and len(report) != a.results:
    problems.append("%d issues, expected %d" % (len(report), a.results))
if problems:
    sys.exit("%s:\n  %s" % (a.report, "\n  ".join(problems)))
