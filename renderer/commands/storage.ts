// Stored objects and formats: ~DG ^XG ~DY ^IM ^ID ~DB ~DU ^DF ^XF.

import type { CommandTable } from '../zpl/command.js';

export const storageCommands: CommandTable = {};
