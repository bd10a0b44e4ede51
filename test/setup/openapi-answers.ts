// Root hook plugin of every run (.mocharc.json): once every file has run, every answer the apps of
// test/helpers/http-app.ts sent matched the OpenAPI document (test/helpers/openapi-check.ts checks each as it is
// sent). Nothing to check when no test loaded the helper. OPENAPI_CHECK_REPORT=1 prints how many were checked.

import { expect } from 'chai';

interface Answers {
  problems: string[];
  checked: number;
}

export const mochaHooks = {
  afterAll() {
    const answers = (globalThis as Record<symbol, Answers | undefined>)[
      Symbol.for('zpl-legacy-compat.openapi-answers')
    ];
    if (!answers) return;
    if (process.env.OPENAPI_CHECK_REPORT) {
      console.log(`    (${answers.checked} answers checked against the OpenAPI document)`);
    }
    expect(
      answers.problems.slice(0, 20),
      `${answers.problems.length} of ${answers.checked} answers do not match the OpenAPI document`,
    ).to.deep.equal([]);
  },
};
