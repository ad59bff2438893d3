# Sourced by the wrappers bin/bash, bin/zsh and bin/fish (POSIX sh). The aliases that
# termhive's integration defines for `bash`, `zsh`, `fish` (so also `exec bash` …)
# point at those wrappers. A shell that will be interactive — no arguments other than
# -l/--login/-i, and a terminal on stdin — is started with termhive's integration; any
# other use (`bash -c …`, `zsh script.zsh`, a pipe) runs the real shell unchanged.
# `exec "$name"` searches PATH, where the wrappers are not, so it finds the real shell.

name=$1
shift
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
