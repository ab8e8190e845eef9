# SPDX-License-Identifier: GPL-2.0
"""Test results in the formats dashboards read, and the time table.

to_json(): the JSON Linux's `kunit.py --json` writes, which KernelCI reads:
a group {"name", "arch", "defconfig", "build_environment", "sub_groups",
"test_cases", "lab_name", "kernel", "job", "git_branch"} whose sub_groups
are the runs (for a plan) and, below them, the suites, each case
{"name", "status"} with status PASS, FAIL, SKIP or ERROR (XFAIL: an
expected failure, "not ok # TODO"). A run that crashed has one case "boot"
with status ERROR; a run expected to fail or crash, one case
"expected failure" or "expected crash", PASS when it was observed.

to_junit(): JUnit XML (GitLab, Jenkins, GitHub's reporters): a <testsuite>
per run and suite, <failure>, <error> and <skipped> in its <testcase>s.

Both count exactly what the summary line counts (count_json() and
count_junit() say so; make test checks it): PASS and XFAIL are the passed
and xfail cases, FAIL and ERROR the failed ones, SKIP the skipped.
"""

import json
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

from ktap import FAILED, PASSED, SKIPPED, XFAIL, Counts

RELEASE = '1.0-static-keys'
STATUS = {PASSED: 'PASS', FAILED: 'FAIL', SKIPPED: 'SKIP', XFAIL: 'XFAIL'}


@dataclass
class RunRecord:
    """One run as the results see it."""
    name: str
    verdict: object                     # verdict.Verdict
    suites: list = field(default_factory=list)    # ktap.TestNode
    suite_times: dict = field(default_factory=dict)  # name -> seconds
    suite_cpu: dict = field(default_factory=dict)    # name -> QEMU CPU s
    config: str = ''                    # the kconfig fragments
    build_dir: str = ''
    build_time: float = 0.0
    boot_time: float = 0.0


def _cases(node):
    """(test_cases, sub_groups) of a node, as ktap's counts() counts."""
    cases, groups = [], []
    child_failed = False
    for child in node.children:
        if child.children:
            groups.append(_group(child.label, child))
            child_failed |= child.counts().failed > 0
            continue
        # An "ok" suite that declared no case ran nothing: not a case.
        if child.has_block and child.status == PASSED:
            continue
        status = STATUS.get(child.status)
        if status is None:          # incomplete: the run's error says why
            continue
        child_failed |= status == 'FAIL'
        cases.append({'name': child.label, 'status': status})
    if node.status == FAILED and not child_failed:
        cases.append({'name': node.label, 'status': 'FAIL'})
    return cases, groups


def _group(name, node=None, cases=None, groups=None, **extra):
    group = {'name': name, 'arch': 'x86_64', 'defconfig': None,
             'build_environment': None, 'sub_groups': groups or [],
             'test_cases': cases or [], 'lab_name': None, 'kernel': RELEASE,
             'job': None, 'git_branch': None}
    if node is not None:
        node_cases, node_groups = _cases(node)
        group['test_cases'] += node_cases
        group['sub_groups'] += node_groups
    group.update(extra)
    return group


def _suite_group(node):
    if node.children:
        return _group(node.label, node)
    if node.has_block and node.status == PASSED:
        return None                 # declared no case
    status = STATUS.get(node.status)
    return _group(node.label, cases=[{'name': node.label, 'status': status}]
                  if status else [])


def _run_group(record):
    verdict = record.verdict
    extra = {'defconfig': record.config or None,
             'build_environment': record.build_dir or None}
    if verdict.expected:
        what = f'expected {verdict.expected}'
        return _group(record.name, cases=[{
            'name': what, 'status': 'PASS' if verdict.expected_ok else 'FAIL'}],
            **extra)
    groups = [g for g in map(_suite_group, record.suites) if g]
    cases = []
    # What plan_counts() adds for a run that did not end cleanly.
    extra_failed = verdict.plan_counts().failed - verdict.counts.failed
    if extra_failed > 0:
        cases.append({'name': 'boot', 'status': 'ERROR',
                      'log': '; '.join(verdict.reasons)})
    return _group(record.name, cases=cases, groups=groups, **extra)


def to_json(records, name='make test'):
    """The KernelCI/Linux kunit.py JSON of these runs (one run: its suites
    at the top)."""
    if len(records) == 1 and name is None:
        return _run_group(records[0])
    return _group(name, groups=[_run_group(r) for r in records])


# The JSON statuses that count as failed (count_json(), failed_json()).
FAILED_STATUSES = ('FAIL', 'ERROR')


def count_json(group):
    """Counts of every case in a to_json() group."""
    counts = Counts()
    for case in group['test_cases']:
        status = case['status']
        if status == 'PASS':
            counts.passed += 1
        elif status in FAILED_STATUSES:
            counts.failed += 1
        elif status == 'SKIP':
            counts.skipped += 1
        elif status == 'XFAIL':
            counts.xfail += 1
    for sub in group['sub_groups']:
        counts.add(count_json(sub))
    return counts


def failed_json(group, prefix=''):
    """Dotted names of the failed cases in a to_json() group, in order."""
    name = f'{prefix}.{group["name"]}' if prefix else group['name']
    out = [f'{name}.{case["name"]}' for case in group['test_cases']
           if case['status'] in FAILED_STATUSES]
    for sub in group['sub_groups']:
        out += failed_json(sub, name)
    return out


def _junit_suites(group, prefix, times):
    """<testsuite> elements for a JSON group and its sub-groups."""
    name = f'{prefix}.{group["name"]}' if prefix else group['name']
    out = []
    if group['test_cases']:
        suite = ET.Element('testsuite', name=name)
        counts = Counts()
        for case in group['test_cases']:
            tc = ET.SubElement(suite, 'testcase', classname=name,
                               name=case['name'])
            status = case['status']
            if status == 'FAIL':
                ET.SubElement(tc, 'failure', message='failed')
                counts.failed += 1
            elif status == 'ERROR':
                ET.SubElement(tc, 'error', message=case.get('log', 'error'))
                counts.failed += 1
            elif status == 'SKIP':
                ET.SubElement(tc, 'skipped')
                counts.skipped += 1
            else:
                counts.passed += 1
        errors = sum(c['status'] == 'ERROR' for c in group['test_cases'])
        suite.set('tests', str(len(group['test_cases'])))
        suite.set('failures', str(counts.failed - errors))
        suite.set('errors', str(errors))
        suite.set('skipped', str(counts.skipped))
        if name in times:
            suite.set('time', f'{times[name]:.2f}')
        out.append(suite)
    for sub in group['sub_groups']:
        out += _junit_suites(sub, name if prefix is not None else '', times)
    return out


def to_junit(group, times=None):
    """JUnit XML (bytes) of a to_json() group; times: "run.suite" -> s."""
    root = ET.Element('testsuites', name=group['name'])
    suites = []
    for sub in group['sub_groups']:
        suites += _junit_suites(sub, '', times or {})
    if group['test_cases']:
        suites += _junit_suites(dict(group, sub_groups=[]), '', times or {})
    for attr in ('tests', 'failures', 'errors', 'skipped'):
        root.set(attr, str(sum(int(s.get(attr)) for s in suites)))
    root.extend(suites)
    ET.indent(root)
    return ET.tostring(root, encoding='utf-8', xml_declaration=True) + b'\n'


def count_junit(data):
    """Counts of a to_junit() document (passed includes any xfail)."""
    root = ET.fromstring(data)
    tests = int(root.get('tests'))
    failed = int(root.get('failures')) + int(root.get('errors'))
    skipped = int(root.get('skipped'))
    return Counts(passed=tests - failed - skipped, failed=failed,
                  skipped=skipped)


def write(path_json, path_junit, group, times=None):
    if path_json:
        with open(path_json, 'w', encoding='utf-8') as out:
            json.dump(group, out, indent=1)
            out.write('\n')
    if path_junit:
        with open(path_junit, 'wb') as out:
            out.write(to_junit(group, times))


def time_table(records, jobs=None, top=15):
    """The lines of the time table: per run (build, boot), then the
    slowest suites; jobs: (name, seconds) of the other steps."""
    lines = ['Times (seconds):',
             f'  {"run":<22} {"build":>7} {"boot":>7}  cases']
    for r in sorted(records, key=lambda r: -(r.build_time + r.boot_time)):
        lines.append(f'  {r.name:<22} {r.build_time:7.1f} {r.boot_time:7.1f}'
                     f'  {r.verdict.counts.total}')
    if jobs:
        lines.append(f'  {"step":<22} {"time":>7}')
        for name, seconds in sorted(jobs, key=lambda j: -j[1]):
            lines.append(f'  {name:<22} {seconds:7.1f}')
    suites = [(f'{r.name}.{s}', t, r.suite_cpu.get(s)) for r in records
              for s, t in r.suite_times.items()]
    suites.sort(key=lambda x: -x[1])
    if suites:
        lines.append(f'  slowest suites of {len(suites)}, wall and QEMU\'s '
                     'CPU seconds (CPU/wall: the host cores its vCPUs kept '
                     'busy):')
        for name, seconds, cpu in suites[:top]:
            busy = (f' {cpu:7.1f} {cpu / seconds:5.2f}'
                    if cpu is not None and seconds > 0 else '')
            lines.append(f'    {name:<40} {seconds:7.1f}{busy}')
    return lines
