#!/usr/bin/env python3
"""Runs every command example of README.md and compares its output with the text shown.

An example is a fenced block (no language) whose lines start with "$ ": each such line is a
command, the lines after it up to the next command are its expected output (stdout and stderr
together). Each block runs in a fresh scratch folder holding `testdata` (a link), an empty
`empty.jpg`, an `admin-token`, and `glimpse.sqlite` with the sample catalog indexed, unless
the block's first command is `glimpse index` (then the catalog starts empty). `glimpse` is
the binary given. A command ending in `&` runs in the background (the server: the next
command waits for its /readyz); `/tmp/tmp.XXXX` stands for the scratch folder; `echo $?`
prints the previous command's status; `TOKEN` in a command stands for the last page token an
earlier output printed.

Masked before comparing: progress lines before a stage's last, durations and rates, `elapsed_ms`, page tokens, catalog ids,
dates, the scratch path and the job count. Everything else must be equal, so a changed
output fails until the README is updated (`--write` rewrites the README's outputs).

Then the examples of every command's `--help` (its "Example:" block): each must fit its
lines unbroken (a command continues on the next line only after a trailing backslash), and
each `glimpse` example runs, in help order, in one scratch folder with the sample catalog,
and must exit 0. Skipped, and said so: examples on paths a scratch folder cannot have
(`~/…`, `photo.jpg`), `serve` (a server, checked by the README's own serve example) and
PostgreSQL URLs.

The Swift block under "Calling Glimpse from Swift" must end with exactly the lines between
"// README example begins" and "// README example ends" in
Tests/GlimpseClientTests/ReadmeExampleTests.swift (dedented), which the test suite compiles and
runs against a real server: the README shows code that builds and works.

Usage: scripts/check_readme.py GLIMPSE [--write] [--readme README.md]
Exit: 0 every example matches, 1 a mismatch (shown as a diff), 2 usage.
"""
import difflib, os, re, shutil, subprocess, sys, tempfile, time, urllib.request

MASKS = [
    (re.compile(r'"elapsed_ms":\d+'), '"elapsed_ms":<ms>'),
    (re.compile(r'\b\d+(\.\d+)? (files|entities|photos|images)/s\b'), '<rate>'),
    (re.compile(r'done in \d+:\d\d'), 'done in <t>'),
    (re.compile(r'\b\d+(\.\d+)? ?(ms|s)\b'), '<t>'),
    (re.compile(r'(--page-token |page_token=|"next_page_token":")([A-Za-z0-9_\-]{16,}|TOKEN)'), r'\1<token>'),
    (re.compile(r'"catalog":"[0-9a-f\-]{36}"'), '"catalog":"<uuid>"'),
    (re.compile(r'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ'), '<date>'),
    (re.compile(r'with \d+ jobs'), 'with <n> jobs'),
    (re.compile(r'\d+(\.\d+)?%\), '), '<pct>), '),
]


# Progress lines before a stage ends come at most once a second: how many depends on the
# machine's speed, so they are left out (the stage's final "done in" line stays).
INTERMEDIATE_PROGRESS = re.compile(r'^[a-z-]+: [a-z ]+ \d+/\d+ \(.*, ETA ')


def mask(text, scratch):
    text = text.replace(scratch, '/tmp/tmp.XXXX')
    lines = [line for line in text.split('\n') if not INTERMEDIATE_PROGRESS.match(line)]
    text = '\n'.join(lines)
    for pattern, replacement in MASKS:
        text = pattern.sub(replacement, text)
    return [line.rstrip() for line in text.strip('\n').split('\n')] if text.strip() else []


def examples(readme):
    """(first line number, [(command, [expected lines])]) per example block."""
    lines = readme.split('\n')
    out, k = [], 0
    while k < len(lines):
        if lines[k].startswith('```'):
            end = next(j for j in range(k + 1, len(lines)) if lines[j].startswith('```'))
            body = lines[k + 1:end]
            if lines[k] == '```' and body and body[0].startswith('$ '):
                steps = []
                for line in body:
                    if line.startswith('$ '):
                        steps.append((line[2:], []))
                    else:
                        steps[-1][1].append(line)
                out.append((k + 2, steps))
            k = end + 1
        else:
            k += 1
    return out


def prepare(glimpse, root, indexed):
    scratch = tempfile.mkdtemp(prefix='tmp.', dir='/tmp')
    os.symlink(os.path.join(root, 'testdata'), os.path.join(scratch, 'testdata'))
    os.symlink(os.path.join(root, 'README.md'), os.path.join(scratch, 'README.md'))
    open(os.path.join(scratch, 'empty.jpg'), 'wb').close()
    with open(os.path.join(scratch, 'admin-token'), 'w') as f:
        f.write('readme-check-token-0123456789\n')
    os.chmod(os.path.join(scratch, 'admin-token'), 0o600)
    if indexed:
        subprocess.run([glimpse, 'index', 'testdata/catalog/manifest.json'], cwd=scratch, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return scratch


def run_block(glimpse, root, steps):
    indexed = not steps[0][0].startswith('glimpse index')
    scratch = prepare(glimpse, root, indexed)
    bindir = tempfile.mkdtemp()
    os.symlink(glimpse, os.path.join(bindir, 'glimpse'))
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ['PATH'])
    background, status, outputs, token = [], 0, [], None
    try:
        for command, _ in steps:
            command = command.replace('/tmp/tmp.XXXX', scratch)
            if token:
                command = re.sub(r'\bTOKEN\b', token, command)
            if command.rstrip().endswith('&'):
                log = open(os.path.join(scratch, 'background.log'), 'w')
                background.append(subprocess.Popen(command.rstrip()[:-1], shell=True, cwd=scratch, env=env,
                                                   stdout=log, stderr=subprocess.STDOUT, start_new_session=True))
                wait_ready()
                outputs.append('')
                continue
            if command.strip() == 'echo $?':
                outputs.append(f'{status}\n')
                continue
            done = subprocess.run(['bash', '-c', command], cwd=scratch, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, timeout=300)
            status = done.returncode
            text = done.stdout.decode('utf-8', 'replace')
            outputs.append(text)
            found = re.findall(r'(?:--page-token |"next_page_token":")([A-Za-z0-9_\-]{16,})', text)
            if found:
                token = found[-1]
    finally:
        for process in background:
            os.killpg(process.pid, 15)
            process.wait(timeout=30)
        shutil.rmtree(bindir, ignore_errors=True)
    result = [mask(text, scratch) for text in outputs]
    raw = [[line for line in text.replace(scratch, '/tmp/tmp.XXXX').rstrip('\n').split('\n') if not INTERMEDIATE_PROGRESS.match(line)]
           if text.strip() else [] for text in outputs]
    shutil.rmtree(scratch, ignore_errors=True)
    return result, raw


def wait_ready():
    for _ in range(300):
        try:
            with urllib.request.urlopen('http://127.0.0.1:8080/readyz', timeout=1) as answer:
                if answer.status == 200:
                    return
        except Exception:
            pass
        time.sleep(0.1)
    raise SystemExit('check_readme: the server started in the background never became ready on 127.0.0.1:8080')


def subcommands(glimpse, words=()):
    """Every leaf command's words, in the order `--help` lists them."""
    text = subprocess.run([glimpse, *words, '--help'], stdout=subprocess.PIPE, stderr=subprocess.STDOUT).stdout.decode()
    if 'SUBCOMMANDS:' not in text:
        return [list(words)]
    found = []
    for line in text.split('SUBCOMMANDS:', 1)[1].split('\n'):
        match = re.match(r'^  ([a-z][a-z0-9-]*)(?: \(default\))?\s', line + ' ')
        if match and match.group(1) != 'help':
            found += subcommands(glimpse, (*words, match.group(1)))
    return found


def help_examples(glimpse):
    """(command words, example lines as shown, the example joined into one command) per example."""
    out = []
    for words in subcommands(glimpse):
        text = subprocess.run([glimpse, *words, '--help'], stdout=subprocess.PIPE, stderr=subprocess.STDOUT).stdout.decode()
        parts = re.split(r'^Examples?:\n', text, maxsplit=1, flags=re.M)
        if len(parts) < 2:
            continue
        block = parts[1].split('\n\n')[0].split('\n')
        current = []
        for line in block:
            current.append(line)
            if not line.rstrip().endswith('\\'):
                joined = ' '.join(part.strip().rstrip('\\').strip() for part in current)
                out.append((words, current, joined))
                current = []
    return out


def check_help_examples(glimpse):
    """Number of failures among the `--help` examples (printed)."""
    failures = 0
    scratch = prepare(glimpse, os.getcwd(), True)
    bindir = tempfile.mkdtemp()
    os.symlink(glimpse, os.path.join(bindir, 'glimpse'))
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ['PATH'])
    ran = skipped = 0
    try:
        for words, lines, command in help_examples(glimpse):
            name = ' '.join(words)
            starts = [line for line in lines[1:] if not line.startswith('    ')]
            if not lines[0].startswith('  ') or starts:
                failures += 1
                print(f'glimpse {name} --help: an example is broken across lines without a trailing backslash: {lines}')
                continue
            if any(len(line) > 80 for line in lines):
                failures += 1
                print(f'glimpse {name} --help: an example line is wider than 80 columns: {lines}')
            if not command.startswith('glimpse ') or command.startswith('glimpse serve') or '~' in command \
                    or 'photo.jpg' in command or 'postgres://' in command:
                skipped += 1
                continue
            done = subprocess.run(['bash', '-c', command], cwd=scratch, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, timeout=300)
            ran += 1
            if done.returncode != 0:
                failures += 1
                print(f'glimpse {name} --help: `{command}` exited {done.returncode}:')
                print(done.stdout.decode('utf-8', 'replace')[-2000:])
    finally:
        shutil.rmtree(bindir, ignore_errors=True)
        shutil.rmtree(scratch, ignore_errors=True)
    print(f'check_readme: {ran} --help examples ran, {skipped} skipped (other paths, serve, PostgreSQL), {failures} failed')
    return failures


SWIFT_EXAMPLE = 'Tests/GlimpseClientTests/ReadmeExampleTests.swift'


def check_swift_example(readme, root):
    """1 when the README's Swift client example is not the tested one, else 0."""
    source = open(os.path.join(root, SWIFT_EXAMPLE)).read().split('\n')
    begin = next(k for k, line in enumerate(source) if line.strip() == '// README example begins')
    end = next(k for k, line in enumerate(source) if line.strip() == '// README example ends')
    region = source[begin + 1:end]
    indent = min(len(line) - len(line.lstrip()) for line in region if line.strip())
    region = [line[indent:].rstrip() for line in region]
    lines = readme.split('\n')
    heading = next((k for k, line in enumerate(lines) if line.startswith('### Calling Glimpse from Swift')), None)
    if heading is None:
        print('README.md: no "### Calling Glimpse from Swift" section')
        return 1
    start = next(k for k in range(heading, len(lines)) if lines[k].startswith('```swift'))
    stop = next(k for k in range(start + 1, len(lines)) if lines[k].startswith('```'))
    block = [line.rstrip() for line in lines[start + 1:stop]]
    if block[-len(region):] != region:
        print(f'README.md:{start + 1}: the Swift example is not the one {SWIFT_EXAMPLE} runs')
        sys.stdout.writelines(difflib.unified_diff([r + '\n' for r in region], [b + '\n' for b in block[-len(region):]],
                                                   SWIFT_EXAMPLE, 'README', n=1))
        return 1
    print(f'check_readme: the Swift example is the one {SWIFT_EXAMPLE} runs')
    return 0


def main():
    args = sys.argv[1:]
    if not args or args[0] in ('-h', '--help'):
        print(__doc__)
        return 0 if args else 2
    glimpse = os.path.abspath(args[0])
    write = '--write' in args
    readme_path = args[args.index('--readme') + 1] if '--readme' in args else 'README.md'
    root = os.path.dirname(os.path.abspath(readme_path))
    readme = open(readme_path).read()
    failures, replacements = 0, {}
    for line, steps in examples(readme):
        actual, raw = run_block(glimpse, root, steps)
        for step, ((command, expected), got, got_raw) in enumerate(zip(steps, actual, raw)):
            want = mask('\n'.join(expected), '\0')
            if want != got:
                failures += 1
                print(f'README.md:{line}: $ {command}')
                sys.stdout.writelines(difflib.unified_diff([w + '\n' for w in want], [g + '\n' for g in got], 'README', 'actual', n=1))
            replacements[(line, step)] = got_raw
    if write:
        lines = readme.split('\n')
        blocks = dict(examples(readme))
        out, k = [], 0
        while k < len(lines):
            out.append(lines[k])
            if lines[k].startswith('```'):
                end = next(j for j in range(k + 1, len(lines)) if lines[j].startswith('```'))
                if (k + 2) in blocks:
                    for step, (command, _) in enumerate(blocks[k + 2]):
                        out.append('$ ' + command)
                        out.extend(replacements[(k + 2, step)])
                else:
                    out.extend(lines[k + 1:end])
                out.append(lines[end])
                k = end + 1
                continue
            k += 1
        open(readme_path, 'w').write('\n'.join(out))
        print(f'check_readme: rewrote the outputs of {len(blocks)} examples in {readme_path}')
        return 0
    print(f'check_readme: {failures} example(s) differ' if failures else 'check_readme: every README example matches')
    failures += check_swift_example(readme, root)
    os.chdir(root)
    failures += check_help_examples(glimpse)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
