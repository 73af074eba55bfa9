/**
 * Counts in the words people read: "1 student", "3 students", never "student(s)". Intl.PluralRules decides (the
 * nouns are English, as every message is).
 */
const rules = new Intl.PluralRules('en');

/** `n noun` with the noun's plural when English needs it: count(1, 'game') → '1 game', count(2, 'entry', 'entries'). */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${rules.select(n) === 'one' ? noun : plural}`;
}

