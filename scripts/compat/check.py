#!/usr/bin/env python3
"""Finds contradictions in the compatibility database (resources/compat/cudnn-compat.json) and
between it and NVIDIA's machine-readable facts kept in tests/fixtures/compat/.

usage: check.py [DATABASE] [--fixtures DIR]
           prints one line per contradiction; exit 1 if there is any
       check.py --derive [DATABASE]
           rewrites every derived value of the database from the published rows on both sides,
           the narrower wherever they differ (a PyTorch pairing may raise the CUDA range's top)
       check.py --self-test
           breaks a copy of the database in every way checked and fails unless each break is found
"""
import copy
import csv
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, '..', '..'))
DEFAULT_DATABASE = os.path.join(REPO, 'resources', 'compat', 'cudnn-compat.json')
DEFAULT_FIXTURES = os.path.join(REPO, 'tests', 'fixtures', 'compat')


def version(text):
    """'12.2.2' -> (12, 2, 2); None stays None."""
    return None if text is None else tuple(int(part) for part in str(text).split('.'))


def major_minor(text):
    return version(text)[:2]


def within(value, low, high):
    """value inside [low, high]; an unknown (None) end does not bound."""
    return (low is None or version(low) <= value) and (high is None or value <= version(high))


def rows_of(variant):
    return [variant] + variant.get('extraRows', [])


def release_of(db, cudnn):
    """The release whose version is `cudnn` given with 3 or 4 parts."""
    wanted = version(cudnn)
    for release in db['cudnnReleases']:
        if version(release['version'])[:len(wanted)] == wanted:
            return release
    return None


def variant_for_major(release, cuda_major):
    for variant in release['variants']:
        if int(variant['cuda'].split('.')[0]) == cuda_major:
            return variant
    return None


def check_pytorch(db):
    """A PyTorch build pairs a cuDNN with a CUDA inside that cuDNN's range."""
    for torch in db['pytorch']:
        for build in torch['builds']:
            where = 'torch %s cu%s cuDNN %s' % (torch['torch'], build['cuda'], build['cudnn'])
            release = release_of(db, build['cudnn'])
            if release is None:
                yield '%s: no such cuDNN release' % where
                continue
            cuda = major_minor(build['cuda'])
            variant = variant_for_major(release, cuda[0])
            if variant is None:
                yield '%s: cuDNN %s has no CUDA %d variant' % (where, release['version'], cuda[0])
                continue
            if not any(within(cuda, row.get('cudaMin'), row.get('cudaMax')) for row in rows_of(variant)):
                yield '%s: outside cuDNN %s cuda%s range %s-%s' % (
                    where, release['version'], variant['cuda'], variant.get('cudaMin'), variant.get('cudaMax'))


def check_pytorch_architectures(db):
    """A PyTorch build's architecture list names known capabilities its CUDA still builds for, and its
    toolkit is a CUDA release of Table 3 (whose driver minimum is then NVIDIA's); PTX ISA versions
    map to CUDA releases in the same order."""
    known = {cc for entry in db['architectures'] for cc in entry['computeCapabilities']}
    floors = {entry['cudaMajor']: entry['minimumComputeCapability'] for entry in db['cudaArchitectureSupport']}
    toolkits = {toolkit['version'] for toolkit in db['cudaToolkits']}
    for torch in db['pytorch']:
        for build in torch['builds']:
            archs = build.get('architectures')
            if archs is None:
                continue
            where = 'torch %s cu%s' % (torch['torch'], build['cuda'])
            toolkit = build.get('toolkit')
            if toolkit not in toolkits:
                yield '%s: toolkit %s is not a CUDA release of Table 3' % (where, toolkit)
            elif major_minor(toolkit) != major_minor(build['cuda']):
                yield '%s: toolkit %s is not CUDA %s' % (where, toolkit, build['cuda'])
            floor = floors.get(major_minor(build['cuda'])[0])
            for cc in archs['sass'] + archs['ptx']:
                if cc not in known:
                    yield '%s: compute capability %s is in no architecture' % (where, cc)
                elif floor is not None and version(cc) < version(floor):
                    yield '%s: CUDA %s builds nothing below %s, yet %s is listed' % (where, build['cuda'], floor, cc)
            if not archs['sass'] or any(system not in ('linux', 'windows') for system in archs.get('ptxOn', [])):
                yield '%s: an empty SASS list or an unknown system in ptxOn' % where
            if any(source not in db['sources'] for source in archs['sources']):
                yield '%s: architectures name an unknown source' % where
    cudas = toolkits | {branch['maxCuda'] for branch in db['driverBranches']}
    previous = None
    for entry in db['ptxIsa']:
        if not any(major_minor(known_cuda) == major_minor(entry['cuda']) for known_cuda in cudas):
            yield 'PTX ISA %s: CUDA %s is no release nor a driver branch\'s' % (entry['isa'], entry['cuda'])
        if previous and not (version(previous['isa']) < version(entry['isa']) and
                             version(previous['cuda']) < version(entry['cuda'])):
            yield 'PTX ISA %s (CUDA %s) out of order after %s (CUDA %s)' % (
                entry['isa'], entry['cuda'], previous['isa'], previous['cuda'])
        previous = entry


def check_gpu_architectures(db):
    """Every GPU pattern resolves to a compute capability its architecture lists."""
    architectures = {entry['name']: entry['computeCapabilities'] for entry in db['architectures']}
    for gpu in db['gpus']:
        listed = architectures.get(gpu['architecture'])
        if listed is None:
            yield 'GPU %s: architecture %s is not in architectures' % (gpu['pattern'], gpu['architecture'])
        elif gpu['computeCapability'] not in listed:
            yield 'GPU %s: compute capability %s is not %s\'s (%s)' % (
                gpu['pattern'], gpu['computeCapability'], gpu['architecture'], ', '.join(listed))


def normalised_gpu_name(db, name):
    """The name as the program matches it: no leading 'NVIDIA ', no suffixes."""
    name = ' '.join(name.replace('(TM)', '').replace('(R)', '').split())
    if name.lower().startswith('nvidia '):
        name = name[7:]
    stripped = True
    while stripped:
        stripped = False
        for suffix in db['gpuNameSuffixes']:
            if name.lower().endswith(suffix.lower()):
                name = name[:-len(suffix)].strip()
                stripped = True
    return name


def check_gpu_patterns(db):
    """No pattern twice; every example is matched first by its own pattern."""
    seen = set()
    patterns = [(gpu, re.compile(gpu['pattern'], re.IGNORECASE)) for gpu in db['gpus']]
    for gpu, _ in patterns:
        if gpu['pattern'] in seen:
            yield 'GPU %s: listed twice' % gpu['pattern']
        seen.add(gpu['pattern'])
    for gpu, own in patterns:
        for example in gpu.get('examples', []):
            name = normalised_gpu_name(db, example)
            first = next((other for other, pattern in patterns if pattern.search(name)), None)
            if first is None:
                yield 'GPU %s: its example "%s" matches no pattern' % (gpu['pattern'], example)
            elif first is not gpu:
                yield 'GPU %s: its example "%s" is taken by %s first (%s)' % (
                    gpu['pattern'], example, first['pattern'], first['computeCapability'])


def branch_of(db, driver):
    """The highest listed branch not above the driver's first number."""
    first = version(driver)[0]
    below = [branch for branch in db['driverBranches'] if branch['branch'] <= first]
    return max(below, key=lambda branch: branch['branch']) if below else None


def check_driver_branches(db):
    """The branch table and Table 3 agree: a toolkit's minimum driver is of a branch that supports
    it, and a branch's newest CUDA is one a driver of that branch can run."""
    for toolkit in db['cudaToolkits']:
        if toolkit['linuxMin'] is None:
            continue
        branch = branch_of(db, toolkit['linuxMin'])
        if branch is None:
            yield 'CUDA %s: its driver %s is older than every branch' % (toolkit['version'], toolkit['linuxMin'])
        elif version(branch['maxCuda']) < major_minor(toolkit['version']):
            yield 'CUDA %s needs driver %s, but branch R%d stops at CUDA %s' % (
                toolkit['version'], toolkit['linuxMin'], branch['branch'], branch['maxCuda'])
    for branch in db['driverBranches']:
        toolkits = [toolkit for toolkit in db['cudaToolkits']
                    if major_minor(toolkit['version']) == version(branch['maxCuda']) and toolkit['linuxMin']]
        if toolkits and min(version(toolkit['linuxMin'])[0] for toolkit in toolkits) > branch['branch']:
            yield 'R%d: said to run CUDA %s, whose every release needs a newer driver (%s)' % (
                branch['branch'], branch['maxCuda'], ', '.join(toolkit['linuxMin'] for toolkit in toolkits))


def published_neighbours(db, release_index, cuda):
    """The nearest releases before and after, of the same major line, whose variant `cuda` has
    published (not derived) values: a CUDA range or compute capabilities NVIDIA printed."""
    releases = db['cudnnReleases']
    line = version(releases[release_index]['version'])[0]

    def published(index):
        release = releases[index]
        if version(release['version'])[0] != line:
            return None
        variant = next((other for other in release['variants'] if other['cuda'] == cuda), None)
        if variant is None or variant.get('derived'):
            return None
        if variant.get('cudaMin') is None and variant.get('cudaMax') is None and not capabilities_of(variant):
            return None
        return release, variant

    before = next(filter(None, (published(i) for i in range(release_index - 1, -1, -1))), None)
    after = next(filter(None, (published(i) for i in range(release_index + 1, len(releases)))), None)
    return [neighbour for neighbour in (before, after) if neighbour]


def capabilities_of(variant):
    listed = set()
    for row in rows_of(variant):
        listed.update(row.get('computeCapabilities') or [])
    return listed


ARCHIVE_NAMES = [
    # cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip, cudnn-linux-sbsa-…_cuda12-archive.tar.xz
    (re.compile(r'^cudnn-(windows|linux)-(x86_64|sbsa)-(\d+(?:\.\d+)+)_cuda(\d+(?:\.\d+)?)-archive\.(?:zip|tar\.xz)$'),
     lambda m: ('%s-%s' % (m.group(1), m.group(2)), m.group(3), m.group(4))),
    # cudnn-11.4-windows-x64-v8.2.4.15.zip, cudnn-9.0-linux-x64-v7.6.5.32.tgz
    (re.compile(r'^cudnn-(\d+\.\d+)-(windows\d*|linux)-x64-v(\d+(?:\.\d+)+)\.(?:zip|tgz)$'),
     lambda m: ('windows-x86_64' if m.group(2).startswith('windows') else 'linux-x86_64', m.group(3), m.group(1))),
]


def check_archives(db):
    """An archive's file name names its platform, release and variant, and that release has it."""
    for archive in db['archives']:
        parsed = None
        for pattern, fields in ARCHIVE_NAMES:
            match = pattern.match(archive['file'])
            if match:
                parsed = fields(match)
        if parsed is None:
            yield 'archive %s: not a name NVIDIA uses' % archive['file']
            continue
        platform, cudnn, cuda = parsed
        if (platform, cudnn, cuda) != (archive['platform'], archive['cudnn'], archive['cuda']):
            yield 'archive %s: recorded as %s cuDNN %s cuda%s' % (
                archive['file'], archive['platform'], archive['cudnn'], archive['cuda'])
        release = release_of(db, cudnn)
        if release is None:
            yield 'archive %s: no cuDNN release %s' % (archive['file'], cudnn)
        elif version(release['version']) != version(cudnn):
            yield 'archive %s: the release is %s' % (archive['file'], release['version'])
    hashes = {}
    for archive in db['archives']:
        other = hashes.setdefault(archive['sha256'], archive['file'])
        if other != archive['file']:
            yield 'archive %s: the same SHA-256 as %s' % (archive['file'], other)


def read_csv(path):
    with open(path, newline='', encoding='utf-8') as handle:
        return list(csv.DictReader(row for row in handle if not row.startswith('#')))


def check_fixtures(db, fixtures):
    """The database against NVIDIA's own figures: the redistrib manifests' files, sizes and
    SHA-256, the compute capability of every GPU NVIDIA's CUDA GPUs pages list, and Table 3 of the
    CUDA release notes."""
    manifests = {row['file']: row for row in read_csv(os.path.join(fixtures, 'redistrib-archives.csv'))}
    recorded = {archive['file']: archive for archive in db['archives']}
    for name, row in sorted(manifests.items()):
        archive = recorded.get(name)
        if archive is None:
            yield 'manifest file %s: not in the database' % name
        elif archive['sha256'] != row['sha256'] or archive['size'] != int(row['size']):
            yield 'archive %s: %s, %s bytes; NVIDIA\'s manifest: %s, %s bytes' % (
                name, archive['sha256'], archive['size'], row['sha256'], row['size'])
    for archive in db['archives']:
        if archive['confidence'] == 'nvidia-manifest' and archive['file'] not in manifests:
            yield 'archive %s: said to be from NVIDIA\'s manifest, which does not list it' % archive['file']
    for row in read_csv(os.path.join(fixtures, 'cuda-gpus.csv')):
        name = normalised_gpu_name(db, row['name'])
        found = next((gpu for gpu in db['gpus'] if re.search(gpu['pattern'], name, re.IGNORECASE)), None)
        if found is None:
            yield 'GPU "%s" (NVIDIA\'s %s page, %s): no pattern knows it' % (
                row['name'], row['page'], row['computeCapability'])
        elif found['computeCapability'] != row['computeCapability']:
            yield 'GPU "%s": %s by %s; NVIDIA\'s %s page: %s' % (
                row['name'], found['computeCapability'], found['pattern'], row['page'], row['computeCapability'])
    table = {row['cuda']: row for row in read_csv(os.path.join(fixtures, 'toolkit-drivers.csv'))}
    toolkits = {toolkit['version']: toolkit for toolkit in db['cudaToolkits']}
    for cuda, row in sorted(table.items(), key=lambda item: version(item[0])):
        toolkit = toolkits.get(cuda)
        expected = (row['linuxMin'] or None, row['windowsMin'] or None)
        if toolkit is None:
            yield 'CUDA %s: in Table 3, not in the database' % cuda
        elif (toolkit['linuxMin'], toolkit['windowsMin']) != expected:
            yield 'CUDA %s: drivers %s / %s; Table 3: %s / %s' % (
                cuda, toolkit['linuxMin'], toolkit['windowsMin'], expected[0], expected[1])


def derive(db):
    """Every derived variant that has published rows of its variant beside it gets its values from
    them, the narrower wherever they differ: the highest lower bound and driver minimum, the
    lowest upper bound, the compute capabilities both list. Unknown values bound nothing."""
    for index, release in enumerate(db['cudnnReleases']):
        for variant in release['variants']:
            if not variant.get('derived'):
                continue
            neighbours = published_neighbours(db, index, variant['cuda'])
            if not neighbours:
                continue  # read from another variant's row: nothing to derive from
            rows = [published for _, published in neighbours]

            def known(key):
                return [row[key] for row in rows if row.get(key) is not None]

            for key in ('cudaMin', 'linuxDriverMin', 'windowsDriverMin'):
                values = known(key)
                variant[key] = max(values, key=version) if values else None
            tops = known('cudaMax')
            variant['cudaMax'] = min(tops, key=version) if tops else None
            paired = [build['cuda'] for torch in db['pytorch'] for build in torch['builds']
                      if version(release['version'])[:len(version(build['cudnn']))] == version(build['cudnn'])
                      and major_minor(build['cuda'])[0] == int(variant['cuda'].split('.')[0])]
            if paired and variant['cudaMax'] is not None and max(map(major_minor, paired)) > version(variant['cudaMax']):
                variant['cudaMax'] = '%d.%d' % max(map(major_minor, paired))
                if 'PT_RELEASE_MD' not in variant['sources']:
                    variant['sources'].append('PT_RELEASE_MD')
            # The main rows' lists only: a row that widens a release under conditions (Blackwell
            # from CUDA 12.8) keeps its conditions where it is.
            lists = [set(row['computeCapabilities']) for row in rows if row.get('computeCapabilities')]
            floors = known('minimumComputeCapability')
            floor = max(floors, key=version) if floors else None
            variant.pop('minimumComputeCapability', None)
            if lists:
                both = set.intersection(*lists)
                variant['computeCapabilities'] = sorted(
                    (cc for cc in both if floor is None or version(cc) >= version(floor)), key=version)
            else:
                variant['computeCapabilities'] = None
                if floor is not None:
                    variant['minimumComputeCapability'] = floor
            variant['rangeFrom'] = [neighbour['version'] for neighbour, _ in neighbours]


def check_derivation(db):
    """Every derived value is what the rule gives (derive()): nothing copied forward by hand, no
    value wider than the published rows beside it. A row that widens a derived release under
    conditions lists no compute capability its neighbours do not; without a published row of the
    same variant on either side, rangeFrom names the matrix release the values were read from (one
    that lists that CUDA under another variant)."""
    derived = copy.deepcopy(db)
    derive(derived)
    keys = ('cudaMin', 'cudaMax', 'linuxDriverMin', 'windowsDriverMin', 'computeCapabilities',
            'minimumComputeCapability', 'rangeFrom')
    for index, (release, again) in enumerate(zip(db['cudnnReleases'], derived['cudnnReleases'])):
        for variant, rule in zip(release['variants'], again['variants']):
            if not variant.get('derived'):
                continue
            where = 'cuDNN %s cuda%s (derived)' % (release['version'], variant['cuda'])
            neighbours = published_neighbours(db, index, variant['cuda'])
            if not neighbours and not variant.get('rangeFrom'):
                yield '%s: names no release its values were read from' % where
            for key in keys:
                if variant.get(key) != rule.get(key):
                    yield '%s: %s %s, the rule gives %s (check.py --derive)' % (
                        where, key, variant.get(key), rule.get(key))
            extra = set()
            for row in variant.get('extraRows', []):
                extra.update(row.get('computeCapabilities') or [])
            for neighbour, published in neighbours:
                floor = published.get('minimumComputeCapability')
                wider = (extra - capabilities_of(published) if capabilities_of(published)
                         else {cc for cc in extra if version(cc) < version(floor)} if floor else set())
                if wider:
                    yield '%s: compute capabilities %s under conditions, which %s does not list' % (
                        where, ', '.join(sorted(wider, key=version)), neighbour['version'])


CHECKS = [check_pytorch, check_pytorch_architectures, check_gpu_architectures, check_gpu_patterns, check_driver_branches, check_derivation,
          check_archives]


def contradictions(db, fixtures):
    found = []
    for check in CHECKS:
        found.extend(check(db))
    found.extend(check_fixtures(db, fixtures))
    return found


def self_test(db, fixtures):
    """Each way of breaking the database must be found."""
    def first_derived(candidate):
        for release in candidate['cudnnReleases']:
            for variant in release['variants']:
                if variant.get('derived') and variant.get('computeCapabilities'):
                    return variant
        raise SystemExit('self-test: no derived variant with compute capabilities to widen')

    def newest_with_driver(candidate):
        return [toolkit for toolkit in candidate['cudaToolkits'] if toolkit['linuxMin']][-1]

    breaks = {
        'a torch build outside its cuDNN\'s CUDA range':
            lambda d: d['pytorch'][-1]['builds'][-1].update(cuda='%d.99' % major_minor(d['pytorch'][-1]['builds'][-1]['cuda'])[0]),
        'a torch build listing a GPU its CUDA no longer builds for':
            lambda d: next(b for t in d['pytorch'] for b in t['builds']
                           if b['cuda'].startswith('13.') and 'architectures' in b)['architectures']['sass'].insert(0, '6.1'),
        'a torch build whose toolkit is another CUDA':
            lambda d: next(b for t in d['pytorch'] for b in t['builds'] if 'toolkit' in b).update(toolkit='11.8.0'),
        'a torch build listing a capability of no architecture':
            lambda d: next(b for t in d['pytorch'] for b in t['builds']
                           if 'architectures' in b)['architectures']['ptx'].append('9.9'),
        'a PTX ISA mapped out of order': lambda d: d['ptxIsa'][-1].update(cuda=d['ptxIsa'][0]['cuda']),
        'a GPU of an architecture that lacks its compute capability':
            lambda d: d['gpus'][0].update(computeCapability='9.9'),
        'a pattern listed twice': lambda d: d['gpus'].append(copy.deepcopy(d['gpus'][0])),
        'a pattern shadowed by an earlier one':
            lambda d: d['gpus'].insert(0, dict(d['gpus'][-1], pattern='.*', examples=[])),
        'a branch that stops before its own toolkit':
            lambda d: branch_of(d, newest_with_driver(d)['linuxMin']).update(maxCuda='1.0'),
        'a branch said to run a toolkit whose drivers are newer':
            lambda d: min(d['driverBranches'], key=lambda b: b['branch']).update(
                maxCuda='%d.%d' % major_minor(newest_with_driver(d)['version'])),
        'a derived value wider than its neighbours':
            lambda d: first_derived(d)['computeCapabilities'].insert(0, '1.0'),
        'a derived value naming other releases than its neighbours':
            lambda d: next(v for r in d['cudnnReleases'] for v in r['variants']
                           if v.get('derived') and len(v.get('rangeFrom') or []) == 2).update(rangeFrom=['8.0.0']),
        'a derived value the rule does not give':
            lambda d: next(v for r in d['cudnnReleases'] for v in r['variants']
                           if v.get('derived') and len(v.get('rangeFrom') or []) == 2
                           and v.get('cudaMin')).update(cudaMin='%s.%s' % (1, 0)),
        'a derived value read from no named release':
            lambda d: next(v for i, r in enumerate(d['cudnnReleases']) for v in r['variants']
                           if v.get('derived') and not published_neighbours(d, i, v['cuda'])).pop('rangeFrom'),
        'a derived release widened under conditions its neighbours do not list':
            lambda d: next(v for r in d['cudnnReleases'] for v in r['variants']
                           if v.get('derived') and len(v.get('rangeFrom') or []) == 2).setdefault(
                'extraRows', []).append({'computeCapabilities': ['1.0'], 'sources': ['CUDA_GPUS']}),
        'an archive recorded under another release': lambda d: d['archives'][-1].update(cudnn='9.0.0.0'),
        'an archive hash changed from NVIDIA\'s manifest':
            lambda d: next(a for a in d['archives'] if a['confidence'] == 'nvidia-manifest').update(sha256='0' * 64),
        'a GPU of NVIDIA\'s table that no pattern knows': lambda d: d['gpus'].pop(0),
        'a GPU of NVIDIA\'s table given another capability of its architecture':
            lambda d: d['gpus'][0].update(computeCapability='5.2'),
        'a toolkit driver changed from Table 3': lambda d: d['cudaToolkits'][0].update(linuxMin='410.49'),
    }
    failures = 0
    own = contradictions(db, fixtures)
    for name, apply in breaks.items():
        broken = copy.deepcopy(db)
        apply(broken)
        found = [line for line in contradictions(broken, fixtures) if line not in own]
        print('%s: %s' % (name, found[0] if found else 'NOT FOUND'))
        failures += not found
    return failures


def main(arguments):
    fixtures = DEFAULT_FIXTURES
    if '--fixtures' in arguments:
        at = arguments.index('--fixtures')
        fixtures = arguments[at + 1]
        del arguments[at:at + 2]
    testing = '--self-test' in arguments
    deriving = '--derive' in arguments
    arguments = [argument for argument in arguments if argument not in ('--self-test', '--derive')]
    path = arguments[0] if arguments else DEFAULT_DATABASE
    with open(path, encoding='utf-8') as handle:
        db = json.load(handle)
    if deriving:
        derive(db)
        with open(path, 'w', encoding='utf-8') as handle:
            handle.write(json.dumps(db, indent=2, ensure_ascii=False) + '\n')
    if testing:
        return 1 if self_test(db, fixtures) else 0
    found = contradictions(db, fixtures)
    for line in found:
        print(line)
    print('%d contradictions' % len(found))
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
