"""Writes the bash completion of the rigidbench command from the program itself (cmake/shell_docs.cmake):
its commands and each command's options from their --help, scheme and problem names from
`list --json`. usage: make_completion.py RIGIDBENCH OUT"""
import json
import os
import re
import subprocess
import sys

exe, out = sys.argv[1:3]


def run(*args):
    return subprocess.run([exe, *args], capture_output=True, text=True, check=True).stdout


def options(text):
    found = []
    for line in text.splitlines():
        m = re.match(r"^\s+(-[\w-]+(?:,-[\w-]+)*)\b", line)
        if m:
            found += [o for o in m.group(1).split(",") if o.startswith("--")]
    return found


def commands(text):
    return re.findall(r"^  (\w+)\s", text.split("Subcommands:", 1)[1], re.M) if "Subcommands:" in text else []


top = run("--help")
names = json.loads(run("list", "--json"))
integrators = " ".join(i["name"] for i in names["integrators"])
problems = " ".join(p["name"] for p in names["problems"])
cases = []
for c in commands(top):
    h = run(c, "--help")
    words = options(h) + commands(h)
    cases.append(f'    {c}) opts="{" ".join(words)}" ;;')

text = f"""# bash completion for rigidbench: commands, options, scheme and problem names. Generated from the
# program by cmake/make_completion.py; installed in share/bash-completion/completions.
_rigidbench() {{
  local cur="${{COMP_WORDS[COMP_CWORD]}}" prev="${{COMP_WORDS[COMP_CWORD-1]}}" opts
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "{' '.join(commands(top))} {' '.join(options(top))}" -- "$cur"))
    return
  fi
  case "$prev" in
    --integrator) COMPREPLY=($(compgen -W "{integrators}" -- "$cur")); return ;;
    --problem) COMPREPLY=($(compgen -W "{problems}" -- "$cur")); return ;;
  esac
  case "${{COMP_WORDS[1]}}" in
{chr(10).join(cases)}
    *) opts="" ;;
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}}
complete -o filenames -F _rigidbench rigidbench
"""
tmp = out + ".tmp"
with open(tmp, "w") as f:
    f.write(text)
os.replace(tmp, out)
