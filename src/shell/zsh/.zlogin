# termhive zsh shim, part 4 of 4: login shells only, the last startup file. See .zshenv.
__termhive_zsh_user_file .zlogin
[[ -n $__termhive_zsh_file ]] && builtin source "$__termhive_zsh_file"
__termhive_zsh_back_to_shim
__termhive_zsh_restore_zdotdir
