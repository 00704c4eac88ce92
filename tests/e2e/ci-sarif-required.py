#!/usr/bin/env python3
"""Validates a SARIF log against the official SARIF 2.1.0 JSON schema
(python3-jsonschema; the schema file comes from a registry package, see
fetch-sarif-schema.sh, given with --schema or $HOTPATH_SARIF_SCHEMA), then
checks what the schema cannot say: ruleIndex points at the rule named by
ruleId, every uriBaseId is defined, what code scanning needs to show and
track a finding (each hotpath rule with fullDescription, help text and
markdown and helpUri; each result with partialFingerprints), and the
expected results.

  ci-sarif-required.py LOG.sarif [--schema FILE] [--results N] [--rule ID]
                       [--file URI --line L --col C] [--fixes] [--failed]
Prints each problem; exits 1 on any.
"""
import argparse
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    # A python3 of its own (pyenv) may lack it; Debian's has python3-jsonschema.
    if os.path.realpath(sys.executable) != os.path.realpath('/usr/bin/python3') \
            and os.path.exists('/usr/bin/python3'):
        os.execv('/usr/bin/python3', ['/usr/bin/python3'] + sys.argv)
    sys.exit('ci-sarif-required.py: no jsonschema module (install python3-jsonschema)')

problems = []


def validate(log, schema_path):
    try:
        schema = json.load(open(schema_path))
    except (OSError, ValueError) as e:
        problems.append('cannot read the SARIF schema %s: %s' % (schema_path, e))
        return
    cls = jsonschema.validators.validator_for(schema)
    for e in sorted(cls(schema).iter_errors(log), key=lambda e: list(e.path)):
        where = '$' + ''.join('[%d]' % p if isinstance(p, int) else '.' + p for p in e.path)
        problems.append('%s: %s (schema: %s)' % (where, e.message[:300],
                                                 '/'.join(str(x) for x in e.schema_path)))


def check_code_scanning(run, rp):
    for i, rule in enumerate(run.get('tool', {}).get('driver', {}).get('rules', [])):
        if not rule.get('id', '').startswith('hotpath-'):
            continue
        p = '%s.tool.driver.rules[%d] (%s)' % (rp, i, rule.get('id'))
        for key in ('shortDescription', 'fullDescription'):
            if not rule.get(key, {}).get('text'):
                problems.append('%s: no %s' % (p, key))
        if not rule.get('help', {}).get('text') or not rule.get('help', {}).get('markdown'):
            problems.append('%s: no help text and markdown' % p)
        if not rule.get('helpUri'):
            problems.append('%s: no helpUri' % p)
    for i, r in enumerate(run.get('results', [])):
        fp = r.get('partialFingerprints', {})
        if not fp or not all(isinstance(v, str) and v for v in fp.values()):
            problems.append('%s.results[%d]: no partialFingerprints' % (rp, i))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('log')
    ap.add_argument('--schema', default=os.environ.get('HOTPATH_SARIF_SCHEMA'),
                    help='the SARIF 2.1.0 JSON schema (default: $HOTPATH_SARIF_SCHEMA)')
    ap.add_argument('--results', type=int)
    ap.add_argument('--rule')
    ap.add_argument('--file')
    ap.add_argument('--line', type=int)
    ap.add_argument('--col', type=int)
    ap.add_argument('--fixes', action='store_true', help='the result must carry a fix')
    ap.add_argument('--failed', action='store_true', help='executionSuccessful must be false')
    ap.add_argument('--notified', metavar='FILE[:LINE]',
                    help='a tool execution notification of level error must be about FILE '
                         '(its SRCROOT-relative uri), at LINE when given')
    a = ap.parse_args()
    try:
        log = json.load(open(a.log))
    except ValueError as e:
        print('not JSON: %s' % e)
        return 1
    if not a.schema:
        print('no SARIF schema: give --schema or set HOTPATH_SARIF_SCHEMA (fetch-sarif-schema.sh)')
        return 1
    validate(log, a.schema)
    for ri, run in enumerate(log.get('runs', [])):
        rp = '$.runs[%d]' % ri
        rules = run.get('tool', {}).get('driver', {}).get('rules', [])
        bases = run.get('originalUriBaseIds', {})
        for k, b in bases.items():
            if not b.get('uri', '').startswith('file:///') or not b['uri'].endswith('/'):
                problems.append('%s.originalUriBaseIds.%s: not an absolute directory URI' % (rp, k))

        def each_artifact(o, p):
            if isinstance(o, dict):
                for k, v in o.items():
                    if k == 'artifactLocation' and isinstance(v, dict) and 'uriBaseId' in v \
                            and v['uriBaseId'] not in bases:
                        problems.append('%s.%s: uriBaseId %r undefined' % (p, k, v['uriBaseId']))
                    each_artifact(v, p + '.' + k)
            elif isinstance(o, list):
                for i, v in enumerate(o):
                    each_artifact(v, '%s[%d]' % (p, i))
        each_artifact(run.get('results', []), rp + '.results')
        check_code_scanning(run, rp)
        for i, r in enumerate(run.get('results', [])):
            if 'ruleIndex' in r:
                if r['ruleIndex'] >= len(rules) or rules[r['ruleIndex']].get('id') != r.get('ruleId'):
                    problems.append('%s.results[%d]: ruleIndex does not name rule %r'
                                    % (rp, i, r.get('ruleId')))
        results = run.get('results', [])
        if a.results is not None and len(results) != a.results:
            problems.append('%d results, expected %d' % (len(results), a.results))
        if a.failed != (not all(inv.get('executionSuccessful') for inv in run.get('invocations', []))):
            problems.append('executionSuccessful is not %s' % (not a.failed))
        if a.notified:
            nfile, _, nline = a.notified.partition(':')
            found = []
            for inv in run.get('invocations', []):
                for n in inv.get('toolExecutionNotifications', []):
                    for loc in n.get('locations', []):
                        pl = loc.get('physicalLocation', {})
                        found.append((n.get('level'), pl.get('artifactLocation', {}).get('uri'),
                                      pl.get('region', {}).get('startLine')))
            if not any(lv == 'error' and uri == nfile and (not nline or line == int(nline))
                       for lv, uri, line in found):
                problems.append('no error notification about %s; notifications: %r'
                                % (a.notified, found))
        for r in results[:1]:
            if a.rule and r.get('ruleId') != a.rule:
                problems.append('ruleId %r, expected %r' % (r.get('ruleId'), a.rule))
            if a.file:
                loc = r['locations'][0]['physicalLocation']
                got = (loc['artifactLocation'].get('uri'), loc['region'].get('startLine'),
                       loc['region'].get('startColumn'))
                if got != (a.file, a.line, a.col):
                    problems.append('location %s, expected %s' % (got, (a.file, a.line, a.col)))
            if a.fixes and not r.get('fixes'):
                problems.append('the result carries no fix')
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
