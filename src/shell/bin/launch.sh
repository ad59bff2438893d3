# Sourced by the wrappers bin/bash, bin/zsh and bin/fish (POSIX sh). The aliases that
# termhive's integration defines for `bash`, `zsh`, `fish` (so also `exec bash` …)
# point at those wrappers. A shell that will be interactive — no arguments other than
# -l/--login/-i, and a terminal on stdin — is started with termhive's integration; any
# other use (`bash -c …`, `zsh script.zsh`, a pipe) runs the real shell unchanged.
# `exec "$name"` searches PATH, where the wrappers are not, so it finds the real shell.

# `.` passes no arguments in every sh (dash ignores them): the shell's name is the
# wrapper's own file name, and "$@" is still the wrapper's arguments.
name=${0##*/}
: "${TERMHIVE_SHELL_DIR:=${0%/bin/*}}"
export TERMHIVE_SHELL_DIR

integrate=1
login=
for a in "$@"; do
  case $a in
    -l|--login) login=1 ;;
    -i|--interactive) ;;
    *) integrate= ;;
  esac
done
[ -t 0 ] || integrate=
[ -n "${TERMHIVE_SHELL_INTEGRATION_DISABLE-}" ] && integrate=
[ -n "$integrate" ] || exec "$name" "$@"

# `exec bash` typed in an integrated shell keeps its PID: the old shell sent C for
# that line and will never send D, so tell the new shell to send D;0 before its first
# prompt. A nested `bash` runs as a child (another PID): its parent sends the D later.
if [ -n "${TERMHIVE_SHELL_PID-}" ] && [ "$$" = "$TERMHIVE_SHELL_PID" ]; then
  export TERMHIVE_EXEC_FROM_PID=$$
else
  unset TERMHIVE_EXEC_FROM_PID
fi

case $name in
  bash)
    # bash ignores --rcfile in a login shell: see TERMHIVE_SHELL_LOGIN in termhive.bash.
    if [ -n "$login" ]; then export TERMHIVE_SHELL_LOGIN=1; fi
    exec bash --rcfile "$TERMHIVE_SHELL_DIR/bash/termhive.bash" -i
    ;;
  zsh)
    # The shim restores the user's ZDOTDIR from TERMHIVE_USER_ZDOTDIR (absent = unset).
    if [ -n "${ZDOTDIR+x}" ]; then export TERMHIVE_USER_ZDOTDIR="$ZDOTDIR"; else unset TERMHIVE_USER_ZDOTDIR; fi
    export ZDOTDIR="$TERMHIVE_SHELL_DIR/zsh"
    exec zsh "$@"
    ;;
  fish)
    # fish expands $TERMHIVE_SHELL_DIR itself, so the path needs no quoting here.
    exec fish "$@" --init-command 'source "$TERMHIVE_SHELL_DIR/fish/termhive.fish"'
    ;;
esac
exec "$name" "$@"
