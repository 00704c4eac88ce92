#!/usr/bin/env python3
"""Checks a SARIF log field by field against the SARIF 2.1.0 schema
(sarif-schema-2.1.0.json, OASIS): for every object hotpath-tidy writes, the
schema's required properties, the types and ranges of the properties it
uses, its enums, and that no property outside the schema appears (the schema
says additionalProperties: false). Hand-written from the schema, so no
network is needed. Also checks what the schema cannot say: ruleIndex points
at the rule named by ruleId, every uriBaseId is defined, regions are ordered.

  ci-sarif-required.py LOG.sarif [--results N] [--rule ID] [--file URI --line L --col C]
Prints each problem; exits 1 on any.
"""
import argparse
import json
import re
import sys

# Objects of the schema ("definitions") that hotpath-tidy emits.
# props: name -> spec; spec: 'string' | 'uri' | 'bool' | ('int', min) |
# ('enum', [...]) | ('obj', Def) | ('array', Def-or-spec, minItems) |
# ('map', Def)
SCHEMA = {
    'sarifLog': {
        'required': ['version', 'runs'],
        'props': {'$schema': 'uri', 'version': ('enum', ['2.1.0']),
                  'runs': ('array', 'run', 0)},
    },
    'run': {
        'required': ['tool'],
        'props': {'tool': ('obj', 'tool'), 'results': ('array', 'result', 0),
                  'invocations': ('array', 'invocation', 0),
                  'originalUriBaseIds': ('map', 'artifactLocation'),
                  'columnKind': ('enum', ['utf16CodeUnits', 'unicodeCodePoints'])},
    },
    'tool': {'required': ['driver'], 'props': {'driver': ('obj', 'toolComponent')}},
    'toolComponent': {
        'required': ['name'],
        'props': {'name': 'string', 'version': 'string', 'informationUri': 'uri',
                  'rules': ('array', 'reportingDescriptor', 0)},
    },
    'reportingDescriptor': {
        'required': ['id'],
        'props': {'id': 'string', 'name': 'string',
                  'shortDescription': ('obj', 'multiformatMessageString')},
    },
    'multiformatMessageString': {'required': ['text'], 'props': {'text': 'string'}},
    'message': {'required_any': [['text'], ['id']], 'props': {'text': 'string', 'id': 'string'}},
    'result': {
        'required': ['message'],
        'props': {'ruleId': 'string', 'ruleIndex': ('int', -1),
                  'level': ('enum', ['none', 'note', 'warning', 'error']),
                  'message': ('obj', 'message'), 'locations': ('array', 'location', 0),
                  'relatedLocations': ('array', 'location', 0), 'fixes': ('array', 'fix', 0)},
    },
    'location': {
        'required': [],
        'props': {'id': ('int', -1), 'physicalLocation': ('obj', 'physicalLocation'),
                  'message': ('obj', 'message')},
    },
    'physicalLocation': {
        'required_any': [['address'], ['artifactLocation']],
        'props': {'artifactLocation': ('obj', 'artifactLocation'), 'region': ('obj', 'region')},
    },
    'artifactLocation': {'required': [], 'props': {'uri': 'uri', 'uriBaseId': 'string'}},
    'region': {
        'required': [],
        'props': {'startLine': ('int', 1), 'startColumn': ('int', 1), 'endLine': ('int', 1),
                  'endColumn': ('int', 1), 'charOffset': ('int', -1), 'charLength': ('int', 0)},
    },
    'fix': {
        'required': ['artifactChanges'],
        'props': {'description': ('obj', 'message'),
                  'artifactChanges': ('array', 'artifactChange', 1)},
    },
    'artifactChange': {
        'required': ['artifactLocation', 'replacements'],
        'props': {'artifactLocation': ('obj', 'artifactLocation'),
                  'replacements': ('array', 'replacement', 1)},
    },
    'replacement': {
        'required': ['deletedRegion'],
        'props': {'deletedRegion': ('obj', 'region'), 'insertedContent': ('obj', 'artifactContent')},
    },
    'artifactContent': {'required': [], 'props': {'text': 'string'}},
    'invocation': {
        'required': ['executionSuccessful'],
        'props': {'executionSuccessful': 'bool',
                  'toolExecutionNotifications': ('array', 'notification', 0)},
    },
    'notification': {
        'required': ['message'],
        'props': {'level': ('enum', ['none', 'note', 'warning', 'error']),
                  'message': ('obj', 'message'), 'locations': ('array', 'location', 0)},
    },
}

URI_REF = re.compile(r"^[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]*$")
problems = []


def check_spec(value, spec, path):
    if isinstance(spec, str) and spec in SCHEMA:
        return check_obj(value, spec, path)
    if spec == 'string':
        if not isinstance(value, str):
            problems.append('%s: not a string' % path)
    elif spec == 'uri':
        if not isinstance(value, str) or not URI_REF.match(value):
            problems.append('%s: not a URI reference: %r' % (path, value))
    elif spec == 'bool':
        if not isinstance(value, bool):
            problems.append('%s: not a boolean' % path)
    elif spec[0] == 'int':
        if not isinstance(value, int) or isinstance(value, bool) or value < spec[1]:
            problems.append('%s: not an integer >= %d: %r' % (path, spec[1], value))
    elif spec[0] == 'enum':
        if value not in spec[1]:
            problems.append('%s: %r not one of %s' % (path, value, spec[1]))
    elif spec[0] == 'obj':
        check_obj(value, spec[1], path)
    elif spec[0] == 'array':
        if not isinstance(value, list):
            problems.append('%s: not an array' % path)
            return
        if len(value) < spec[2]:
            problems.append('%s: fewer than %d items' % (path, spec[2]))
        for i, v in enumerate(value):
            check_spec(v, spec[1], '%s[%d]' % (path, i))
    elif spec[0] == 'map':
        if not isinstance(value, dict):
            problems.append('%s: not an object' % path)
            return
        for k, v in value.items():
            check_obj(v, spec[1], '%s.%s' % (path, k))


def check_obj(value, name, path):
    if not isinstance(value, dict):
        problems.append('%s: %s is not an object' % (path, name))
        return
    d = SCHEMA[name]
    for r in d.get('required', []):
        if r not in value:
            problems.append('%s: %s lacks required property %r' % (path, name, r))
    if 'required_any' in d and not any(all(r in value for r in alt) for alt in d['required_any']):
        problems.append('%s: %s needs one of %s' % (path, name, d['required_any']))
    for k, v in value.items():
        if k not in d['props']:
            problems.append('%s: %s has no property %r in the schema' % (path, name, k))
        else:
            check_spec(v, d['props'][k], '%s.%s' % (path, k))
    if name == 'region':
        if 'endLine' in value and value['endLine'] < value.get('startLine', 1):
            problems.append('%s: endLine before startLine' % path)
        if value.get('endLine', value.get('startLine')) == value.get('startLine') and \
                'endColumn' in value and value['endColumn'] < value.get('startColumn', 1):
            problems.append('%s: endColumn before startColumn' % path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('log')
    ap.add_argument('--results', type=int)
    ap.add_argument('--rule')
    ap.add_argument('--file')
    ap.add_argument('--line', type=int)
    ap.add_argument('--col', type=int)
    ap.add_argument('--fixes', action='store_true', help='the result must carry a fix')
    ap.add_argument('--failed', action='store_true', help='executionSuccessful must be false')
    a = ap.parse_args()
    try:
        log = json.load(open(a.log))
    except ValueError as e:
        print('not JSON: %s' % e)
        return 1
    check_obj(log, 'sarifLog', '$')
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
