// `npm run test:unit`: every test file but those test/suites.json lists, with the unit run's guard
// (test/setup/unit-guard.ts: no Redis, PostgreSQL, other hosts, npm, browsers or other services).
const base = require('../.mocharc.json');
const { integration } = require('./suites.json');

module.exports = {
  ...base,
  spec: ['dist/test/**/*.test.js'],
  ignore: Object.keys(integration).map((file) => `dist/test/${file.replace(/\.ts$/, '.js')}`),
  require: [...base.require, 'dist/test/setup/unit-guard.js'],
};
