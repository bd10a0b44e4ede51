// A store's URL for log lines and errors: the password shown as ***, the rest as given.

/** `url` without its password; `what` names the store when the URL does not parse (`<invalid Redis URL>`). */
export function redactUrl(url: string, what = 'Redis'): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return `<invalid ${what} URL>`;
  }
}
