# termhive shell integration for zsh: the hooks. Loaded by the shim .zshrc after the
# user's own .zshrc (see .zshenv for how the shim finds and sources the user's files).
#
# Prints on the terminal (BEL-terminated, same meaning as the bash script):
#   OSC 133;A  prompt start            (front of PS1)
#   OSC 133;B  prompt end/input start  (end of PS1)
#   OSC 633;E;<cmdline>                (preexec: the line about to run, escaped)
#   OSC 133;C  output start            (preexec, last)
#   OSC 133;D;<status>                 (precmd, only if a command ran since the last prompt)
#   OSC 7;file://<host><cwd>           (precmd)
#   OSC 133;P;k=c  continuation prompt (front of PS2): the line typed is incomplete
#
# zsh calls preexec only for a line that runs, so an empty Enter or Ctrl-C at the
# prompt gives a new A/B and no C/D; a multi-line command is one preexec (one C, one D).

[[ -o interactive ]] || return 0
(( ${+__termhive_loaded} )) && return 0
typeset -g __termhive_loaded=1
typeset -g __termhive_ran=
typeset -g __termhive_A=$'\e]133;A\a' __termhive_B=$'\e]133;B\a' __termhive_P2=$'\e]133;P;k=c\a'
builtin export TERMHIVE_SHELL_DIR=${TERMHIVE_SHELL_DIR:-${${(%):-%x}:A:h:h}}

# OSC 7. Bytes outside a safe set are percent-encoded; the loop runs only for such paths.
__termhive_osc7() {
  emulate -L zsh
  local p=$PWD
  if [[ $p == *[^A-Za-z0-9/._~-]* ]]; then
    local LC_ALL=C out= c
    local -i i
    for (( i = 1; i <= ${#p}; i++ )); do
      c=${p[i]}
      if [[ $c == [A-Za-z0-9/._~-] ]]; then out+=$c
      else out+=%${(l:2::0:)$(( [##16] #c ))}
      fi
    done
    p=$out
  fi
  builtin print -rn -- $'\e]7;file://'"${HOST-}$p"$'\a'
}

# The command line for OSC 633;E: \ → \\, ; → \x3b, bytes < 0x20 → \xNN.
__termhive_escape() {
  emulate -L zsh
  local s=$1 c
  local -i i
  s=${s//\\/\\\\}
  s=${s//;/\\x3b}
  for (( i = 1; i < 32; i++ )); do
    c=${(#)i}
    [[ $s == *$c* ]] && s=${s//$c/\\x${(l:2::0:)$(( [##16] i ))}}
  done
  REPLY=$s
}

# The last exit status in a file termhive reads ("<pid> <count> <status>"), so a command
# that ends while no termhive process watches still has a known end (see termhive.bash).
typeset -g __termhive_statusfile= __termhive_seq=0
if [[ -n ${TERMHIVE_HOME-} && -n ${TERMHIVE_SESSION-} && -d $TERMHIVE_HOME/shell ]]; then
  __termhive_statusfile=$TERMHIVE_HOME/shell/status.$TERMHIVE_SESSION
fi
__termhive_status() {
  [[ -n $__termhive_statusfile ]] || return 0
  builtin print -r -- "$$ $__termhive_seq $1" 2>/dev/null >|$__termhive_statusfile
}
__termhive_status -
# termhive's mark for the command line it typed (bin/pager prints instead of paging for it):
# emptied at the next prompt, see termhive.bash.
typeset -g __termhive_runfile=
[[ -n $__termhive_statusfile ]] && __termhive_runfile=$TERMHIVE_HOME/shell/run.$TERMHIVE_SESSION

# First precmd hook: sees the command's status, reports it, and hands it on.
__termhive_precmd() {
  local s=$? ran=$__termhive_ran
  [[ -n $__termhive_runfile && -s $__termhive_runfile ]] && : >|$__termhive_runfile
  if [[ -n $ran ]]; then
    __termhive_ran=
    (( __termhive_seq++ ))
    __termhive_status $s
  fi
  # The folder before D: a caller told the command ended already knows where it left the shell.
  __termhive_osc7
  if [[ -n $ran ]]; then builtin print -rn -- $'\e]133;D;'"$s"$'\a'; fi
  return s
}

# Last precmd hook: (re)wraps PS1 with A and B, after every other hook had its chance
# to rebuild the prompt (themes often set PS1 in precmd).
__termhive_prompt() {
  local s=$?
  local a="%{$__termhive_A%}" b="%{$__termhive_B%}"
  if [[ $PS1 != "$a"*"$b" ]]; then
    local p=${PS1//"$a"/}
    p=${p//"$b"/}
    PS1=$a$p$b
  fi
  # PS2 shows when zsh needs more of the line (an open quote, loop, trailing backslash).
  local c="%{$__termhive_P2%}"
  [[ $PS2 == "$c"* ]] || PS2=$c${PS2//"$c"/}
  return s
}

# termhive writes to this file just before it types a `secret` at the prompt (see
# src/shell/secret-line.ts): that line is kept out of the history and out of E.
typeset -g __termhive_secretfile= __termhive_secret_line=
[[ -n $__termhive_statusfile ]] && __termhive_secretfile=$TERMHIVE_HOME/shell/secret.$TERMHIVE_SESSION
__termhive_addhistory() {
  [[ -n $__termhive_secretfile && -s $__termhive_secretfile ]] || return 0
  : >|$__termhive_secretfile
  __termhive_secret_line=1
  return 1
}

# Last preexec hook: E then C, right before the command runs.
__termhive_preexec() {
  __termhive_ran=1
  if [[ -n $__termhive_secret_line ]]; then
    __termhive_secret_line=
    builtin print -rn -- $'\e]133;C\a'
    return
  fi
  local REPLY
  __termhive_escape "$1"
  builtin print -rn -- $'\e]633;E;'"$REPLY"$'\a\e]133;C\a'
}

# A command line that ends the shell (`…; exit 3`) never reaches the next precmd: its D is
# sent on the way out, tagged "exiting", and the shell waits (bounded) for termhive's Enter
# saying it arrived: tmux drops a pane's last output when the program ends before tmux has
# passed it on.
__termhive_exit() {
  local s=$?
  # A subshell's exit (`(exit 3)`) runs these hooks too: only the shell itself ends the pane.
  (( ${ZSH_SUBSHELL:-0} > 0 )) && return 0
  if [[ -n $__termhive_ran ]]; then
    __termhive_ran=
    (( __termhive_seq++ ))
    __termhive_status $s
    builtin print -rn -- $'\e]133;D;'"$s"$';exiting\a'
    [[ -t 0 ]] && builtin read -s -t 0.5 -k 1 __termhive_ack
  fi
  return 0
}

# zsh's documented hook arrays (what add-zsh-hook edits): ours first/last as needed.
typeset -ga precmd_functions preexec_functions zshaddhistory_functions zshexit_functions
precmd_functions=(__termhive_precmd ${precmd_functions:#__termhive_*} __termhive_prompt)
preexec_functions=(${preexec_functions:#__termhive_*} __termhive_preexec)
zshaddhistory_functions=(${zshaddhistory_functions:#__termhive_*} __termhive_addhistory)
zshexit_functions=(${zshexit_functions:#__termhive_*} __termhive_exit)

# This shell replaced an integrated one through `exec zsh` (see bin/launch.sh): close
# the `exec` command line the old shell opened with C.
[[ ${TERMHIVE_EXEC_FROM_PID-} == $$ ]] && builtin print -rn -- $'\e]133;D;0\a'
builtin unset TERMHIVE_EXEC_FROM_PID
# Lets bin/launch.sh tell an `exec` (same PID) from a nested shell (a child).
builtin export TERMHIVE_SHELL_PID=$$

# Pagers point at bin/pager, after the user's rc files, whose values it keeps (see termhive.bash).
() {
  local p=$TERMHIVE_SHELL_DIR/bin/pager n
  [[ $p == *[^A-Za-z0-9/._+-]* ]] && p="'$p'"
  [[ ${PAGER-} == $p ]] && return
  for n in PAGER GIT_PAGER MANPAGER SYSTEMD_PAGER PSQL_PAGER; do
    [[ -n ${(P)n-} ]] && builtin export TERMHIVE_USER_$n=${(P)n}
    if [[ $n == PAGER ]]; then builtin export PAGER=$p; else builtin export $n="$p $n"; fi
  done
  # In its secure mode (on where it cannot ask logind) systemd runs less whatever SYSTEMD_PAGER says.
  (( ${+SYSTEMD_PAGERSECURE} )) || builtin export SYSTEMD_PAGERSECURE=0
}

# `exec zsh`, `exec bash`, `exec fish` and a nested shell keep integration: an alias
# ending in a space makes zsh alias-expand the word after `exec`, and the shell names
# point at wrappers (src/shell/bin/*) that start the real shell integrated when it
# will be interactive. Only typed lines use aliases; a user alias of that name wins.
(( ${+aliases[exec]} )) || alias exec='exec '
() {
  local n
  for n in bash zsh fish; do
    (( ${+aliases[$n]} )) || alias $n="\"\$TERMHIVE_SHELL_DIR/bin/$n\""
  done
}
