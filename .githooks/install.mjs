// `npm install` / `npm ci` (package.json `prepare`) in a clone: git runs this folder's hooks. Does nothing, and
// fails nothing, where this folder is not the top of a git checkout (the packed tarball, the Dockerfile's build
// stage: no git, no .githooks; a dependency's folder inside someone else's repository), nor for `npm pack`.
import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const git = (...args) =>
  execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
const installing = ['install', 'ci', undefined].includes(process.env.npm_command);
try {
  if (installing && realpathSync(git('rev-parse', '--show-toplevel')) === realpathSync(root)) {
    git('config', 'core.hooksPath', '.githooks');
  }
} catch {
  // No git, or not a checkout: nothing to install.
}
