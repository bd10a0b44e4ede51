// `npm run test:integration`: the test files test/suites.json lists, each with the services it needs.
const base = require('../.mocharc.json');
const { integration } = require('./suites.json');

module.exports = {
  ...base,
  spec: Object.keys(integration).map((file) => `dist/test/${file.replace(/\.ts$/, '.js')}`),
};
