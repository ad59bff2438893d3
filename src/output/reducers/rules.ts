// Test runners pad headings with a rule to the terminal width ("==== FAILURES ====",
// "____ test_x ____", vitest's "⎯⎯⎯ Failed Tests 2 ⎯⎯⎯"): dozens of characters per
// heading that say nothing. These helpers cut a rule to two characters each side.

const EDGE = /^([=_\-─━⎯~*#])\1{2,}(?= )|(?<= )([=_\-─━⎯~*#])\2{2,}$/g;

/** "===== FAILURES =====" → "== FAILURES =="; a line without a padded rule is returned as is. */
export function trimRule(text: string): string {
  return text.replace(EDGE, (run) => run.slice(0, 2));
}

/** True for a line that is nothing but a rule ("--------", "⎯⎯⎯⎯"), maybe indented. */
export function isBareRule(text: string): boolean {
  return /^\s*([=_\-─━⎯~*])\1{7,}\s*$/.test(text);
}
