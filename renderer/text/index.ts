// Text fields (font 0, device fonts, downloaded fonts, ^FB/^TB blocks).

import type { DrawerTable } from '../display/drawer.js';
import type { KindOf } from '../model.js';
import { drawTextField } from './field.js';

export const textDrawers: DrawerTable<KindOf<'text'>> = {
  text: drawTextField,
};
