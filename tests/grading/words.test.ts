/**
 * The words people read (grading/words.ts): counts in English plurals, moments in UTC said so; a stored value that
 * is no date comes back unchanged rather than as "Invalid Date".
 */
import { expect, test } from '@jest/globals';
import { clockTime, count, dateTime } from '../../grading/words.js';

test('counts: one and many, and an irregular plural', () => {
  expect([count(0, 'game'), count(1, 'game'), count(2, 'game')]).toEqual(['0 games', '1 game', '2 games']);
  expect([count(1, 'corpus entry', 'corpus entries'), count(3, 'corpus entry', 'corpus entries')]).toEqual(['1 corpus entry', '3 corpus entries']);
});

test('moments: day and time in UTC from an ISO string, a Date or milliseconds; a log stamp; junk unchanged', () => {
  const iso = '2026-11-27T08:47:02.123Z';
  expect(dateTime(iso)).toBe('27 Nov 2026, 08:47 UTC');
  expect(dateTime(new Date(iso))).toBe('27 Nov 2026, 08:47 UTC');
  expect(dateTime(Date.parse('2027-01-05T00:03:00Z'))).toBe('5 Jan 2027, 00:03 UTC');
  expect(clockTime(iso)).toBe('08:47:02');
  expect(clockTime()).toMatch(/^\d\d:\d\d:\d\d$/);
  expect(dateTime('not a date')).toBe('not a date');
  expect(dateTime('')).toBe('');
});
