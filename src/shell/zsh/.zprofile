# termhive zsh shim, part 2 of 4: login shells only. See .zshenv.
__termhive_zsh_user_file .zprofile
[[ -n $__termhive_zsh_file ]] && builtin source "$__termhive_zsh_file"
__termhive_zsh_back_to_shim
