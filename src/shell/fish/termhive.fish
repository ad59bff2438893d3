# termhive shell integration for fish (>= 3.1). Loaded with
#   fish -i --init-command 'source …/termhive.fish'
# which runs after fish has read the user's config (config.fish, conf.d, functions),
# so nothing of the user's is skipped and our hooks sit on top of theirs.
#
# Prints on the terminal (BEL-terminated, same meaning as the bash script):
#   OSC 133;A / 133;B   around the prompt (fish_prompt is wrapped)
#   OSC 633;E;<cmdline> fish_preexec: the line about to run, escaped
#   OSC 133;C           fish_preexec, right before the command runs
#   OSC 133;D;<status>  fish_postexec, with $status of the command line
#   OSC 7;file://<host><cwd> before each prompt, and just before each D
#   OSC 133;P;k=c       Enter on a line fish cannot run yet (see __termhive_enter)
#
# fish fires no preexec/postexec for an empty line, and none for Ctrl-C at the
# prompt, so those give a new prompt (A/B) and no C/D. A multi-line command
# (for … end, a continuation) is one command line: one C and one D.

status is-interactive; or return 0
set -q __termhive_loaded; and return 0
set -g __termhive_loaded 1
set -q TERMHIVE_SHELL_DIR; or set -gx TERMHIVE_SHELL_DIR (path dirname (path dirname (status filename)))

# Bytes below 0x20, and the escapes that stand for them in OSC 633;E, built once.
set -g __termhive_ctl
set -g __termhive_ctl_esc
# `string collect -N` keeps a command substitution from splitting \n or dropping it.
for i in (seq 1 31)
    set -l hex (printf %02x $i)
    set -a __termhive_ctl (printf "\\x$hex" | string collect -N)
    set -a __termhive_ctl_esc "\\x$hex"
end

function __termhive_cwd
    # --style=url percent-encodes everything but unreserved characters and '/'.
    printf '\e]7;file://%s%s\a' $hostname (string escape --style=url -- $PWD)
end
function __termhive_osc7 --on-event fish_prompt
    set -e __termhive_ran_line
    __termhive_cwd
end

# E (the command line, escaped: \ → \\, ; → \x3b, bytes < 0x20 → \xNN) then C.
function __termhive_start_command
    set -l s (string replace -a -- '\\' '\\\\' $argv[1] | string collect)
    set s (string replace -a -- ';' '\\x3b' $s | string collect)
    # Control characters are rare in a command line: skip the 31 passes without them.
    string match -qr '[\x01-\x1f]' -- $s; and for i in (seq 1 31)
        set s (string replace -a -- $__termhive_ctl[$i] $__termhive_ctl_esc[$i] $s | string collect)
    end
    printf '\e]633;E;%s\a\e]133;C\a' $s
end

# The last exit status in a file termhive reads ("<pid> <count> <status>"), so a command
# that ends while no termhive process watches still has a known end (see termhive.bash).
set -g __termhive_statusfile
set -g __termhive_seq 0
if set -q TERMHIVE_HOME; and set -q TERMHIVE_SESSION; and test -d "$TERMHIVE_HOME/shell"
    set __termhive_statusfile "$TERMHIVE_HOME/shell/status.$TERMHIVE_SESSION"
end
function __termhive_status
    test -n "$__termhive_statusfile"; or return 0
    echo $fish_pid $__termhive_seq $argv[1] 2>/dev/null >$__termhive_statusfile
end
__termhive_status -

# termhive's mark for the command line it typed (bin/pager prints instead of paging for it):
# emptied at the next prompt, see termhive.bash.
set -g __termhive_runfile
test -n "$__termhive_statusfile"; and set __termhive_runfile "$TERMHIVE_HOME/shell/run.$TERMHIVE_SESSION"
function __termhive_clear_run --on-event fish_prompt
    set -l s $status
    test -n "$__termhive_runfile"; and test -s "$__termhive_runfile"; and true >$__termhive_runfile
    return $s
end

# Pagers point at bin/pager, after the user's config, whose values it keeps (see termhive.bash).
set -l __termhive_pager "$TERMHIVE_SHELL_DIR/bin/pager"
string match -qr '[^A-Za-z0-9/._+-]' -- $__termhive_pager; and set __termhive_pager "'$__termhive_pager'"
if test "$PAGER" != "$__termhive_pager"
    for n in PAGER GIT_PAGER MANPAGER SYSTEMD_PAGER PSQL_PAGER
        set -q $n; and test -n "$$n"; and set -gx TERMHIVE_USER_$n $$n
        if test $n = PAGER
            set -gx PAGER $__termhive_pager
        else
            set -gx $n "$__termhive_pager $n"
        end
    end
    # In its secure mode (on where it cannot ask logind) systemd runs less whatever SYSTEMD_PAGER says.
    set -q SYSTEMD_PAGERSECURE; or set -gx SYSTEMD_PAGERSECURE 0
end

# termhive writes to this file just before it types a `secret` at the prompt (see
# src/shell/secret-line.ts): that line gets no E and is deleted from the history.
set -g __termhive_secretfile
test -n "$__termhive_statusfile"; and set __termhive_secretfile "$TERMHIVE_HOME/shell/secret.$TERMHIVE_SESSION"

function __termhive_preexec --on-event fish_preexec
    set -g __termhive_started 1
    if test -n "$__termhive_secretfile"; and test -s "$__termhive_secretfile"
        true >$__termhive_secretfile
        # fish adds the line to its history after the preexec handlers: postexec deletes it.
        set -g __termhive_secret_line $argv[1]
        printf '\e]133;C\a'
        return
    end
    __termhive_start_command $argv[1]
end

function __termhive_postexec --on-event fish_postexec
    set -l s $status
    # fish 3.6 skips fish_preexec handlers when Ctrl-C and the next command line arrive
    # in one burst of input (the cancel also cancels the next event handlers). Then C
    # is sent late, just before D, so every D still has its one C (the command's output
    # is before it, not between C and D).
    set -q __termhive_started; or __termhive_start_command $argv[1]
    set -e __termhive_started
    if set -q __termhive_secret_line
        builtin history delete --exact --case-sensitive -- $__termhive_secret_line >/dev/null 2>&1
        set -e __termhive_secret_line
    end
    set __termhive_seq (math $__termhive_seq + 1)
    __termhive_status $s
    # The folder before D: a caller told the command ended already knows where it left the shell.
    __termhive_cwd
    printf '\e]133;D;%s\a' $s
    set -g __termhive_ran_line 1
end

# A command line that ends the shell (`…; exit 3`) gets no fish_postexec: its D is sent on the
# way out, tagged "exiting", and the shell waits (bounded; fish's read has no timeout) for
# termhive's Enter saying it arrived: tmux drops a pane's last output when the program ends
# before tmux has passed it on.
# fish runs fish_postexec for the line that called `exit` (its D is sent there): the exit hook
# sends an "exiting" D again, which termhive takes as that acknowledgement request only.
function __termhive_exit --on-event fish_exit
    set -l s $status
    if set -q __termhive_started
        set -e __termhive_started
        set __termhive_seq (math $__termhive_seq + 1)
        __termhive_status $s
    else if not set -q __termhive_ran_line
        return 0
    end
    printf '\e]133;D;%s;exiting\a' $s
    isatty stdin; and command -q timeout; and command timeout --foreground 0.5 head -c 1 >/dev/null 2>&1
end

# fish has no continuation prompt: Enter on a line it cannot run yet (an open quote or block, a
# trailing backslash) adds a line break to it. Our Enter says so first, with the mark bash and
# zsh put in PS2, then does what Enter did. It replaces Enter only where Enter runs `execute`
# (emacs and vi insert/default modes), again whenever the key bindings are switched.
function __termhive_enter
    commandline --is-valid
    set -l valid $status
    # A trailing backslash (not an escaped one) continues the line although --is-valid says 0.
    set -l lines (commandline)
    if test $valid -eq 2; or begin; set -q lines[1]; and string match -qr -- '(?<!\\\\)(\\\\\\\\)*\\\\$' $lines[-1]; end
        printf '\e]133;P;k=c\a'
    end
    commandline -f execute
end
function __termhive_bind_enter --on-variable fish_key_bindings
    for mode in (bind -L)
        for key in \r \n
            string match -qr -- ' execute$' (bind -M $mode $key 2>/dev/null); and bind -M $mode $key __termhive_enter
        end
    end
end
__termhive_bind_enter

# The prompt: A before the user's fish_prompt, B after it. fish_prompt may be
# autoloaded, or redefined later (fish_config, a theme), so the check runs before
# every prompt and re-wraps whatever fish_prompt is current.
function __termhive_wrap_prompt
    # functions -q autoloads the user's fish_prompt if it exists but is not loaded yet.
    functions -q fish_prompt; or function fish_prompt; printf '%s> ' (prompt_pwd); end
    functions -q __termhive_user_prompt; and functions -e __termhive_user_prompt
    functions -c fish_prompt __termhive_user_prompt
    function fish_prompt
        # Keep $status for the user's prompt, which often shows it.
        set -l s $status
        printf '\e]133;A\a'
        __termhive_set_status $s
        __termhive_user_prompt
        printf '\e]133;B\a'
    end
    set -g __termhive_prompt_def (functions fish_prompt | string collect)
end
function __termhive_set_status
    return $argv[1]
end
function __termhive_check_prompt --on-event fish_prompt
    set -l s $status
    test "$__termhive_prompt_def" = (functions fish_prompt | string collect); or __termhive_wrap_prompt
    __termhive_set_status $s
end
__termhive_wrap_prompt

# This shell replaced an integrated one through `exec fish` from bash or zsh (see
# bin/launch.sh): close the `exec` command line the old shell opened with C.
test "$TERMHIVE_EXEC_FROM_PID" = "$fish_pid"; and printf '\e]133;D;0\a'
set -e TERMHIVE_EXEC_FROM_PID
# Lets bin/launch.sh tell an `exec` (same PID) from a nested shell (a child).
set -gx TERMHIVE_SHELL_PID $fish_pid
