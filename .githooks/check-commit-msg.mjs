// The commit message rules (.githooks/commit-msg runs this on the message file; exits 1 naming what is wrong):
// a subject of at most 72 characters, then, when there is more, a blank line before the body.
import { readFileSync } from 'node:fs';

export const SUBJECT_LIMIT = 72;

/** What is wrong with a commit message, as sentences (none when it is fine). */
export function commitMessageProblems(message) {
  const lines = [];
  for (const line of message.replace(/\r\n/g, '\n').split('\n')) {
    if (/^# -+ >8 -+$/.test(line)) break; // `git commit -v`: nothing below the scissors is kept
    if (!line.startsWith('#')) lines.push(line.trimEnd());
  }
  while (lines.length > 0 && lines[0] === '') lines.shift();
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  if (lines.length === 0) return ['the message is empty'];
  const problems = [];
  const subject = lines[0];
  const length = [...subject].length;
  if (length > SUBJECT_LIMIT) {
    problems.push(
      `the subject has ${length} characters (at most ${SUBJECT_LIMIT}): say what changed, and put the why in the body`,
    );
  }
  if (lines.length > 1 && lines[1] !== '')
    problems.push('the line after the subject must be blank (the body follows it)');
  return problems;
}

if (process.argv[2]) {
  const problems = commitMessageProblems(readFileSync(process.argv[2], 'utf8'));
  if (problems.length > 0) {
    process.stderr.write(`commit-msg: ${problems.join('; ')}.\n`);
    process.exit(1);
  }
}
