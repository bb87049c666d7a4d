# bash completion for stepline: subcommands, their options, --view values,
# demo scenarios, and trace files by extension (directories too: a
# TensorBoard/XProf log directory is a valid FILE). Installed as
# share/bash-completion/completions/stepline.

_stepline_traces() {
  # -X '!pattern' keeps only matching names; directories are always offered.
  local IFS=$'\n'
  COMPREPLY+=($(compgen -f -X '!*.@(json|json.gz|json.zst|xplane.pb|pb|pftrace|perfetto-trace|gz|zst)' -- "$cur"))
  COMPREPLY+=($(compgen -d -- "$cur"))
}

_stepline() {
  local cur prev words cword
  _init_completion -n = 2>/dev/null || {
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    words=("${COMP_WORDS[@]}")
    cword=$COMP_CWORD
  }
  local commands="info bench demo report diff ranks view screenshot export --help --version"
  if ((cword == 1)); then
    COMPREPLY=($(compgen -W "$commands" -- "$cur"))
    [[ "$cur" != -* ]] && _stepline_traces
    return
  fi
  local command="${words[1]}"
  case "$prev" in
    --view)
      COMPREPLY=($(compgen -W "timeline overview step-histogram ops kernels gaps memory compare ranks" -- "$cur"))
      return ;;
    --demo)
      COMPREPLY=($(compgen -W "$(stepline demo --list 2>/dev/null | awk '/^  /{print $1}')" -- "$cur"))
      return ;;
    --theme)
      COMPREPLY=($(compgen -W "dark light" -- "$cur"))
      return ;;
    --out|--sqlite|--patterns|--notes)
      compopt -o filenames 2>/dev/null
      COMPREPLY=($(compgen -f -- "$cur"))
      return ;;
    --csv|--from-reports|--file-dialog)
      compopt -o filenames 2>/dev/null
      COMPREPLY=($(compgen -d -- "$cur"))
      return ;;
    --size|--range|--scale|--step|--steps|--min-gap-us|--top|--tile-mb|--repeat|--threads)
      return ;;
  esac
  local options=""
  case "$command" in
    info) options="--json --help" ;;
    bench) options="--json --tile-mb --repeat --threads --help" ;;
    demo) options="--list --out --force --style --steps --scale --seed --help"
      if ((cword == 2)) && [[ "$cur" != -* ]]; then
        COMPREPLY=($(compgen -W "$(stepline demo --list 2>/dev/null | awk '/^  /{print $1}')" -- "$cur"))
        return
      fi ;;
    report) options="--json --csv --force --steps --min-gap-us --patterns --help" ;;
    diff) options="--json --steps --no-normalize --top --help" ;;
    ranks) options="--json --csv --force --threads --from-reports --help" ;;
    view) options="--demo --ranks" ;;
    screenshot) options="--out --view --size --range --step --scale --caption --critical-path --force --demo --file-dialog --runs --theme --notes --headlines --help" ;;
    export) options="--sqlite --force --help" ;;
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$options" -- "$cur"))
  else
    compopt -o filenames 2>/dev/null
    _stepline_traces
  fi
}
complete -F _stepline stepline
