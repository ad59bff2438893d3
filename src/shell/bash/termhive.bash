# termhive shell integration for bash (>= 5.1).
#
# Started as `bash --rcfile <this file> -i`, so bash reads this file *instead of*
# ~/.bashrc. We therefore source the user's startup files ourselves first, then add
# hooks that report, on the terminal, where each prompt and command begins and ends:
#
#   ESC ] 133 ; A BEL        prompt starts            (start of PS1)
#   ESC ] 133 ; B BEL        prompt ends, input starts (end of PS1)
#   ESC ] 633 ; E ; <cmd> BEL the command line about to run (when bash recorded it)
#   ESC ] 133 ; C BEL        command output starts    (PS0: after the line is read)
#   ESC ] 133 ; D ; <n> BEL  command ended with exit status n (next PROMPT_COMMAND)
#   ESC ] 7 ; file://<host><cwd> BEL   current directory, percent-encoded
#   ESC ] 133 ; P ; k=c BEL  continuation prompt (start of PS2): the line typed is incomplete
#
# Decisions (termhive's parser relies on them):
#   - An empty Enter, or Ctrl-C at the prompt, runs no command: bash does not expand
#     PS0 then, so there is no C and therefore no D. Only A/B for the new prompt.
#   - Ctrl-C of a running command: the command ran (C was sent), so D;130 follows.
#   - A multi-line command (loop, continuation, heredoc) is read as one unit: one PS0,
#     so one C and one D.
#
# Everything here is named __termhive_* so it cannot collide with the user's names.

# Non-interactive shells (bash -c, scripts) never read an rcfile, but be safe.
[[ $- == *i* ]] || return 0
# PS0 (the C marker) exists from bash 4.4 on. Older bash (macOS's 3.2): the user's
# ~/.bashrc only, no integration; termhive then falls back to its other signals.
if (( BASH_VERSINFO[0] < 4 || (BASH_VERSINFO[0] == 4 && BASH_VERSINFO[1] < 4) )); then
  [[ -r ~/.bashrc ]] && builtin source ~/.bashrc
  return 0
fi

# Where the integration scripts live; exported so a re-exec'd shell finds them too.
if [[ -z ${TERMHIVE_SHELL_DIR-} ]]; then
  TERMHIVE_SHELL_DIR=${BASH_SOURCE[0]%/*}
  TERMHIVE_SHELL_DIR=${TERMHIVE_SHELL_DIR%/bash}
fi
export TERMHIVE_SHELL_DIR

# ---------------------------------------------------------------------------
# 1. The user's own startup files, as bash would have read them.
#    (Debian-style builds read SYS_BASHRC, /etc/bash.bashrc, even with --rcfile, so it
#    is not sourced again here.) For a login shell termhive sets TERMHIVE_SHELL_LOGIN
#    because `--rcfile` is ignored by `bash -l`: we start a non-login interactive
#    shell and read the login files the way bash's INVOCATION section describes.
# ---------------------------------------------------------------------------
if [[ -n ${TERMHIVE_SHELL_LOGIN-} ]]; then
  unset TERMHIVE_SHELL_LOGIN
  [[ -r /etc/profile ]] && builtin source /etc/profile
  for __termhive_f in ~/.bash_profile ~/.bash_login ~/.profile; do
    if [[ -r $__termhive_f ]]; then builtin source "$__termhive_f"; break; fi
  done
  unset __termhive_f
else
  [[ -r ~/.bashrc ]] && builtin source ~/.bashrc
fi

# The user's rc may have turned integration off for this shell.
if [[ -n ${TERMHIVE_SHELL_INTEGRATION_DISABLE-} ]]; then return 0; fi
# A second load in the same process (the user sources this file) would double hooks.
if [[ -n ${__termhive_loaded-} ]]; then return 0; fi
__termhive_loaded=1

# ---------------------------------------------------------------------------
# 2. State.
# ---------------------------------------------------------------------------
__termhive_ran=       # set (by PS0, without a fork) when a command line starts running
__termhive_added=0    # set by PS0: 1 when that line went into history (so `history 1` is it)
__termhive_histcmd=$HISTCMD  # HISTCMD at the last prompt: a larger one in PS0 means
                             # the line was added to history, so `history 1` is it.
__termhive_none=()    # always empty: PS0 indexes it only for the side effects
__termhive_A=$'\e]133;A\a'
__termhive_B=$'\e]133;B\a'
__termhive_P2=$'\e]133;P;k=c\a'

# ---------------------------------------------------------------------------
# 3. OSC 7: the working directory as a file:// URL. Bytes outside a safe set are
#    percent-encoded; the loop only runs for such paths, so the common case is a
#    single printf with no fork.
# ---------------------------------------------------------------------------
__termhive_osc7() {
  local p=$PWD
  if [[ $p == *[!A-Za-z0-9/._~-]* ]]; then
    local LC_ALL=C out= c i
    for (( i = 0; i < ${#p}; i++ )); do
      c=${p:i:1}
      case $c in
        [A-Za-z0-9/._~-]) out+=$c ;;
        *) printf -v c '%%%02X' "'$c"; out+=$c ;;
      esac
    done
    p=$out
  fi
  builtin printf '\e]7;file://%s%s\a' "${HOSTNAME-}" "$p"
}

# ---------------------------------------------------------------------------
# 4. The command line for OSC 633;E, escaped so it cannot end or split the sequence:
#    \ -> \\, ; -> \x3b, every byte below 0x20 -> \xNN. Sent from PROMPT_COMMAND, just
#    before D, and only when bash recorded the line in its history (HISTCONTROL=ignorespace/
#    ignoredups or `set +o history` mean it did not: then no E is sent rather than a wrong
#    one). Sending it from PS0 would need a command substitution, that is a fork (~3 ms)
#    on every command; here `history` writes to a file and `read` takes it back in-process.
# ---------------------------------------------------------------------------
__termhive_histfile=${TERMHIVE_HOME:+$TERMHIVE_HOME/shell/}
[[ -n $__termhive_histfile && -d $__termhive_histfile ]] || __termhive_histfile=${TMPDIR:-/tmp}/
__termhive_histfile+=.termhive-cmdline.$$
# The file briefly holds each command line, secrets typed at the prompt included: it is
# created owner-only once (a subshell, so the user's umask is untouched; `>|` keeps the mode)
# and emptied right after each read, so it is never left holding a command.
( builtin umask 077 && : >|"$__termhive_histfile" && command chmod 600 "$__termhive_histfile" ) 2>/dev/null
__termhive_cmdline() {
  local h i c hex
  HISTTIMEFORMAT='' builtin history 1 2>/dev/null >|"$__termhive_histfile" || return 0
  IFS= read -r -d '' h <"$__termhive_histfile"
  : >|"$__termhive_histfile"
  h=${h%$'\n'}
  # `history` prints "%5d%c %s": the number, ' ' or '*' (edited), a space, the line.
  [[ $h =~ ^\ *[0-9]+[\ *]\  ]] || return 0
  h=${h:${#BASH_REMATCH[0]}}
  h=${h//\\/\\\\}
  h=${h//;/\\x3b}
  if [[ $h == *[$'\001'-$'\037']* ]]; then
    for (( i = 1; i < 32; i++ )); do
      printf -v hex %02x "$i"
      printf -v c "\\x$hex"
      [[ $h == *"$c"* ]] && h=${h//"$c"/\\x$hex}
    done
  fi
  builtin printf '\e]633;E;%s\a' "$h"
}

# ---------------------------------------------------------------------------
# 5. Hooks. PROMPT_COMMAND becomes ( __termhive_precmd <user's elements> __termhive_postcmd ).
#    bash restores $? before each element, so the user's hooks and PS1 see the exit
#    status of the user's command, whatever ours return; ours still return it too.
# ---------------------------------------------------------------------------
# ---------------------------------------------------------------------------
# 4b. The last exit status, also in a file termhive reads ("<pid> <count> <status>"), so a
#     command that ends while no termhive process watches the pane still has a known end:
#     the next process compares the count with the one it saw when the command started.
#     A builtin printf with a redirection: no fork. Written once at start (count 0), so a
#     nested shell's writes (another pid) are never taken for this shell's.
# ---------------------------------------------------------------------------
__termhive_statusfile=
if [[ -n ${TERMHIVE_HOME-} && -n ${TERMHIVE_SESSION-} && -d $TERMHIVE_HOME/shell ]]; then
  __termhive_statusfile=$TERMHIVE_HOME/shell/status.$TERMHIVE_SESSION
fi
__termhive_seq=0
# termhive writes to this file just before it types a `secret` at the prompt (see
# src/shell/secret-line.ts); the next precmd empties it. `-s` is a test, not a fork.
__termhive_secretfile=
[[ -n $__termhive_statusfile ]] && __termhive_secretfile=$TERMHIVE_HOME/shell/secret.$TERMHIVE_SESSION
__termhive_status() {
  [[ -n $__termhive_statusfile ]] || return 0
  builtin printf '%s %s %s\n' "$$" "$__termhive_seq" "$1" 2>/dev/null >|"$__termhive_statusfile"
}
__termhive_status -
# termhive writes this per-session mark just before it types a command line (see
# src/shell/run-line.ts), so bin/pager prints instead of paging for that line; the next
# precmd empties it, so a line a person types afterwards gets their pager.
__termhive_runfile=
[[ -n $__termhive_statusfile ]] && __termhive_runfile=$TERMHIVE_HOME/shell/run.$TERMHIVE_SESSION

__termhive_precmd() {
  local s=$? ran=$__termhive_ran
  [[ -n $__termhive_runfile && -s $__termhive_runfile ]] && : >|"$__termhive_runfile"
  if [[ -n $ran ]]; then
    __termhive_ran=
    if [[ -n $__termhive_secretfile && -s $__termhive_secretfile ]]; then
      # termhive typed a secret at this prompt: the line leaves no trace (no E, no file,
      # no history entry, so it never reaches HISTFILE either).
      : >|"$__termhive_secretfile"
      if (( __termhive_added )); then builtin history -d $(( HISTCMD - 1 )) 2>/dev/null; fi
    elif (( __termhive_added )); then __termhive_cmdline; fi
    (( __termhive_seq++ ))
    __termhive_status "$s"
  fi
  # The folder before D: a caller told the command ended already knows where it left the shell.
  __termhive_osc7
  if [[ -n $ran ]]; then builtin printf '\e]133;D;%s\a' "$s"; fi
  __termhive_histcmd=$HISTCMD
  return "$s"
}

# A command line that ends the shell (`…; exit 3`) never reaches the next precmd: the EXIT
# trap sends its D, tagged "exiting", and waits (bounded) for termhive's Enter saying it
# arrived: tmux drops a pane's last output when the program ends before tmux has passed it
# on. bash's `exit` has printed "exit" just before: "said-exit" tells termhive that line is
# not the command's. A trap the user's rc set is left alone (termhive then falls back to the
# pane's end, and may lose the last output).
__termhive_exit() {
  local s=$? tag=exiting
  if [[ -n $__termhive_ran ]]; then
    __termhive_ran=
    case $BASH_COMMAND in exit | exit[[:space:]]* | logout | logout[[:space:]]*) tag=said-exit ;; esac
    (( __termhive_seq++ ))
    __termhive_status "$s"
    builtin printf '\e]133;D;%s;%s\a' "$s" "$tag"
    [[ -t 0 ]] && builtin read -r -s -t 0.5 -n 1 __termhive_tag
  fi
  return "$s"
}
[[ -n $(builtin trap -p EXIT) ]] || builtin trap __termhive_exit EXIT

__termhive_postcmd() {
  local s=$?
  __termhive_install_prompts
  return "$s"
}

# PS1, PS2 and PS0 may be reassigned by the user or by their PROMPT_COMMAND (git prompts,
# starship…) at any time, so the markers are re-applied before every prompt: PS1 gets
# A in front and B at the end; PS0 gets our part after the user's own PS0.
__termhive_ps0_ours='${__termhive_none[__termhive_ran=1]-}${__termhive_none[__termhive_added=HISTCMD>__termhive_histcmd]-}\e]133;C\a'
__termhive_install_prompts() {
  local a='\['$__termhive_A'\]' b='\['$__termhive_B'\]'
  if [[ $PS1 != "$a"*"$b" ]]; then
    local p=${PS1//"$a"/}
    p=${p//"$b"/}
    PS1=$a$p$b
  fi
  # PS2 shows when bash needs more of the line (an open quote, loop, trailing backslash):
  # termhive returns the run at once instead of waiting out its timeout.
  local c='\['$__termhive_P2'\]'
  if [[ ${PS2-} != "$c"* ]]; then
    PS2=$c${PS2//"$c"/}
  fi
  if [[ ${PS0-} != *"$__termhive_ps0_ours" ]]; then
    PS0=${PS0-}$__termhive_ps0_ours
  fi
}

# The user's PROMPT_COMMAND may be a string (one element) or an array (bash >= 5.1).
__termhive_install_prompt_command() {
  if (( BASH_VERSINFO[0] == 4 || (BASH_VERSINFO[0] == 5 && BASH_VERSINFO[1] < 1) )); then
    # bash 4.4-5.0 runs only a string: ours around the user's, one per line (a
    # newline, unlike ';', also ends a trailing comment in the user's string).
    local u=${PROMPT_COMMAND-}
    u=${u#__termhive_precmd$'\n'}
    u=${u%$'\n'__termhive_postcmd}
    PROMPT_COMMAND=__termhive_precmd$'\n'$u$'\n'__termhive_postcmd
    return
  fi
  local -a user=()
  local e
  for e in "${PROMPT_COMMAND[@]}"; do
    [[ $e == __termhive_precmd || $e == __termhive_postcmd || -z $e ]] || user+=("$e")
  done
  PROMPT_COMMAND=(__termhive_precmd "${user[@]}" __termhive_postcmd)
}
__termhive_install_prompt_command
__termhive_install_prompts

# This shell replaced an integrated one through `exec bash` (see bin/launch.sh): close
# the `exec` command line the old shell opened with C.
if [[ ${TERMHIVE_EXEC_FROM_PID-} == "$$" ]]; then
  builtin printf '\e]133;D;0\a'
fi
builtin unset TERMHIVE_EXEC_FROM_PID
# Lets bin/launch.sh tell an `exec` (same PID) from a nested shell (a child).
builtin export TERMHIVE_SHELL_PID=$$

# ---------------------------------------------------------------------------
# 5b. Pagers: every variable that names one points at bin/pager (read its header), after the
#     user's rc files, whose values it keeps for the command lines a person types.
# ---------------------------------------------------------------------------
__termhive_pager=$TERMHIVE_SHELL_DIR/bin/pager
# Quoted only when it must be (a path with spaces): scripts that run `$PAGER file` split, not parse.
[[ $__termhive_pager == *[!A-Za-z0-9/._+-]* ]] && __termhive_pager="'$__termhive_pager'"
if [[ ${PAGER-} != "$__termhive_pager" ]]; then
  for __termhive_f in PAGER GIT_PAGER MANPAGER SYSTEMD_PAGER PSQL_PAGER; do
    if [[ -n ${!__termhive_f-} ]]; then builtin export "TERMHIVE_USER_$__termhive_f=${!__termhive_f}"; fi
    if [[ $__termhive_f == PAGER ]]; then builtin export PAGER=$__termhive_pager
    else builtin export "$__termhive_f=$__termhive_pager $__termhive_f"; fi
  done
  unset __termhive_f
  # In its secure mode (on where it cannot ask logind) systemd runs less whatever SYSTEMD_PAGER says.
  [[ -n ${SYSTEMD_PAGERSECURE+x} ]] || builtin export SYSTEMD_PAGERSECURE=0
fi
unset __termhive_pager

# ---------------------------------------------------------------------------
# 6. `exec bash`, `exec zsh`, `exec fish` (and a nested `bash`) start a shell that
#    would read only the user's rc and lose integration. An alias ending in a space
#    makes bash alias-expand the word after `exec`, and aliases for the three shells
#    point at small wrappers (src/shell/bin/*) that start the real shell with
#    termhive's integration when it will be interactive, or unchanged otherwise
#    (`bash -c …`, `bash script.sh`). Aliases apply only to typed command lines,
#    never to scripts; a user alias of the same name wins.
# ---------------------------------------------------------------------------
alias exec >/dev/null 2>&1 || alias exec='exec '
for __termhive_f in bash zsh fish; do
  alias "$__termhive_f" >/dev/null 2>&1 || alias "$__termhive_f=\"\$TERMHIVE_SHELL_DIR/bin/$__termhive_f\""
done
unset __termhive_f
