# termhive zsh shim, part 3 of 4: interactive shells only. See .zshenv.
__termhive_zsh_user_file .zshrc
[[ -n $__termhive_zsh_file ]] && builtin source "$__termhive_zsh_file"
__termhive_zsh_back_to_shim
# For a non-login shell this is the last startup file.
if [[ ! -o login ]]; then
  __termhive_zsh_restore_zdotdir
fi
# The hooks go in after the user's .zshrc so they wrap whatever prompt it set up.
if [[ -z ${TERMHIVE_SHELL_INTEGRATION_DISABLE-} ]]; then
  builtin source "${TERMHIVE_SHELL_DIR:-${${(%):-%x}:A:h:h}}/zsh/termhive.zsh"
fi
