/**
 * Counts and moments in the words people read: "1 student", "3 students", never "student(s)"; "27 Nov 2026, 08:47
 * UTC", never "2026-11-27T08:47:02.123Z". Intl decides (the words are English, as every message is). Files meant for
 * machines (JSON, CSV, journals) keep ISO 8601: these are for terminal lines and pages only.
 */
const rules = new Intl.PluralRules('en');

/** `n noun` with the noun's plural when English needs it: count(1, 'game') → '1 game', count(2, 'entry', 'entries'). */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${rules.select(n) === 'one' ? noun : plural}`;
}

// UTC, said so: a ladder or queue runs on a server whose readers sit in other time zones.
const dayAndTime = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' });
const timeOfDay = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', timeZone: 'UTC' });

function moment(at: string | number | Date): Date | null {
  const date = at instanceof Date ? at : new Date(at);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** '27 Nov 2026, 08:47 UTC'. A value that is no date (a hand-edited journal) comes back as it was. */
export function dateTime(at: string | number | Date): string {
  const date = moment(at);
  return date ? `${dayAndTime.format(date)} UTC` : String(at);
}

/** '08:47:02' (UTC), the stamp in front of a server's log lines. */
export function clockTime(at: string | number | Date = new Date()): string {
  const date = moment(at);
  return date ? timeOfDay.format(date) : String(at);
}
