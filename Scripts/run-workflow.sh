#!/usr/bin/env bash
# Runs the provider CI workflow's `run:` steps here, in the workflow's order, against a provider package
# outside this repository, so the workflow the CI article shows cannot rot (ProviderWorkflowTests runs
# this inside `swift test`, hence inside .ci/run).
#
#   Scripts/run-workflow.sh [--workflow FILE] [--package DIR] [--checkout NAME] [--workspace DIR]
#
# FILE defaults to Examples/ci/provider-ci.yml, DIR to Examples/provider-package, NAME (the folder the
# workflow checks the package out to) to MyProvider; Examples/ci/xcode-provider-ci.yml checks out an
# app's repository, with its .xcodeproj, to MyApp. The workspace (a new
# temporary directory unless given) gets the layout the workflow's checkout steps make: the package
# copied to WORKSPACE/NAME (its .build kept, so a second run rebuilds only what changed) beside
# WORKSPACE/ContactProviderSimulator, a link to this checkout, which the package depends on by path.
# Each `run:` step runs in bash -euo pipefail in the workspace; `${{ github.run_number }}` is
# $GITHUB_RUN_NUMBER (default 1), and any other `${{ … }}` expression stops the run (it would mean
# something here that it does not mean on GitHub). `uses:` steps are not run: the checkouts are the
# layout above, and the artifact and report actions only publish the JUnit files, which stay in the
# workspace. WORKSPACE/steps-run.log lists each step as it completes: "run N" or "uses N ACTION".
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
workflow="$repo/Examples/ci/provider-ci.yml"
package="$repo/Examples/provider-package"
checkout="MyProvider"
workspace=""
while [ $# -gt 0 ]; do
    case "$1" in
        --workflow) workflow="$2"; shift 2 ;;
        --package) package="$2"; shift 2 ;;
        --checkout) checkout="$2"; shift 2 ;;
        --workspace) workspace="$2"; shift 2 ;;
        *) echo "run-workflow: unknown argument '$1' (see the comment at the top of $0)" >&2; exit 2 ;;
    esac
done
[ -n "$workspace" ] || workspace="$(mktemp -d "${TMPDIR:-/tmp}/provider-ci-XXXXXX")"
mkdir -p "$workspace/$checkout"
workspace="$(cd "$workspace" && pwd)"
find "$workspace/$checkout" -mindepth 1 -maxdepth 1 ! -name .build -exec rm -rf {} +
cp -R "$package/." "$workspace/$checkout/"
ln -sfn "$repo" "$workspace/ContactProviderSimulator"
rm -rf "$workspace/steps" "$workspace/steps-run.log" "$workspace"/*.xml
mkdir "$workspace/steps"

# The steps, one file each, in order: NN.run (the command) or NN.uses (the action).
python3 - "$workflow" "$workspace/steps" <<'PYTHON'
import re, sys

path, out = sys.argv[1], sys.argv[2]
lines = open(path, encoding="utf-8").read().split("\n")

def fail(message):
    sys.exit(f"run-workflow: {path}: {message}")

def indent(line):
    return len(line) - len(line.lstrip(" "))

steps = []  # (kind, text)
in_steps = None  # the indentation of the steps' dashes
i = 0
while i < len(lines):
    line = lines[i]
    text = line.strip()
    if text == "steps:":
        in_steps = None
        i += 1
        steps_indent = indent(line)
        while i < len(lines):
            line = lines[i]
            text = line.strip()
            if not text or text.startswith("#"):
                i += 1
                continue
            if indent(line) <= steps_indent:
                break
            if text.startswith("- "):
                in_steps = indent(line)
                steps.append({})
                text = text[2:]
                key_indent = in_steps + 2
            elif in_steps is None:
                fail(f"line {i + 1}: expected a '- ' step")
            key, _, value = text.partition(":")
            value = value.strip()
            i += 1
            if key in ("run", "uses") and value in (">", "|", ">-", "|-"):
                block = []
                while i < len(lines) and (not lines[i].strip() or indent(lines[i]) > key_indent):
                    block.append(lines[i].strip())
                    i += 1
                value = (" " if value.startswith(">") else "\n").join(b for b in block if b)
            if key in ("run", "uses"):
                if key in steps[-1] or ("run" in steps[-1] and key == "uses") or ("uses" in steps[-1] and key == "run"):
                    fail(f"line {i}: a step with both run: and uses:, or one of them twice")
                steps[-1][key] = value
        continue
    i += 1

if not any("run" in step for step in steps):
    fail("no run: steps found")
for number, step in enumerate(steps, 1):
    if "run" in step:
        command = step["run"].replace("${{ github.run_number }}", '"${GITHUB_RUN_NUMBER:-1}"')
        if "${{" in command:
            fail(f"step {number}: an expression this script does not know: {command}")
        open(f"{out}/{number:02d}.run", "w", encoding="utf-8").write(command + "\n")
    elif "uses" in step:
        open(f"{out}/{number:02d}.uses", "w", encoding="utf-8").write(step["uses"] + "\n")
    else:
        fail(f"step {number} has neither run: nor uses:")
PYTHON

cd "$workspace"
for step in steps/*; do
    number="$(basename "$step" | cut -d. -f1)"
    number="$((10#$number))"
    case "$step" in
        *.uses)
            action="$(cat "$step")"
            echo "run-workflow: step $number: uses $action: not run locally (the checkouts are the layout in $workspace; the JUnit files stay there)" >&2
            echo "uses $number $action" >> steps-run.log
            ;;
        *.run)
            echo "run-workflow: step $number: $(cat "$step")" >&2
            bash -euo pipefail "$step"
            echo "run $number" >> steps-run.log
            ;;
    esac
done
echo "run-workflow: every step of $workflow ran in $workspace" >&2
