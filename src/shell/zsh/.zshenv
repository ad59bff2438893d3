# termhive zsh shim, part 1 of 4 (.zshenv → .zprofile → .zshrc → .zlogin).
#
# termhive starts zsh with ZDOTDIR pointing at this directory, so zsh reads these
# shim files instead of the user's. Each shim file sources the user's file of the same
# name from the user's own ZDOTDIR (or $HOME), exactly where zsh would have looked,
# then points ZDOTDIR back here so zsh finds the next shim file. The last file zsh
# reads for this kind of shell restores the user's ZDOTDIR for good, and .zshrc loads
# termhive.zsh (the OSC 133 / OSC 7 hooks) after the user's .zshrc.
#
# The user's ZDOTDIR travels in TERMHIVE_USER_ZDOTDIR: present means "was set" (even
# to an empty string), absent means "was unset".

__termhive_zdotdir_shim=${ZDOTDIR:-${${(%):-%x}:A:h}}

# The user's files are sourced at the top level of each shim file, never inside a
# function: inside one, the user's `typeset`/`local` declarations would become locals
# and vanish. These two helpers only swap ZDOTDIR around that `source`.

# Sets ZDOTDIR as the user has it; prints the user's file $1 if it exists.
__termhive_zsh_user_file() {
  if (( ${+TERMHIVE_USER_ZDOTDIR} )); then
    builtin export ZDOTDIR=$TERMHIVE_USER_ZDOTDIR
  else
    builtin unset ZDOTDIR
  fi
  __termhive_zsh_file=${ZDOTDIR:-$HOME}/$1
  [[ -r $__termhive_zsh_file ]] || __termhive_zsh_file=
}

# Remembers any change the user's file made to ZDOTDIR (a common ~/.zshenv line sets
# it), then points zsh back at the shim so it finds the next shim file.
__termhive_zsh_back_to_shim() {
  if (( ${+ZDOTDIR} )); then
    builtin export TERMHIVE_USER_ZDOTDIR=$ZDOTDIR
  else
    builtin unset TERMHIVE_USER_ZDOTDIR
  fi
  builtin export ZDOTDIR=$__termhive_zdotdir_shim
  builtin unset __termhive_zsh_file
}

# Gives the user's ZDOTDIR back once zsh has read its last startup file, so nothing
# the user runs later (a child zsh, a plugin manager) sees the shim directory.
__termhive_zsh_restore_zdotdir() {
  if (( ${+TERMHIVE_USER_ZDOTDIR} )); then
    builtin export ZDOTDIR=$TERMHIVE_USER_ZDOTDIR
  else
    builtin unset ZDOTDIR
  fi
  builtin unset TERMHIVE_USER_ZDOTDIR __termhive_zdotdir_shim
  builtin unfunction __termhive_zsh_user_file __termhive_zsh_back_to_shim __termhive_zsh_restore_zdotdir 2>/dev/null
}

__termhive_zsh_user_file .zshenv
[[ -n $__termhive_zsh_file ]] && builtin source "$__termhive_zsh_file"
__termhive_zsh_back_to_shim

# A non-interactive zsh (zsh -c, a script) that inherited this ZDOTDIR reads only
# .zshenv (and .zprofile/.zlogin if it is a login shell): no hooks, just give the
# user's ZDOTDIR back now unless more startup files will come.
if [[ ! -o interactive && ! -o login ]]; then
  __termhive_zsh_restore_zdotdir
fi
