// Label size in dots, as the legacy service computes it: read by layout and by the render pool's lane choice, which
// must not load the renderer to make it.

export { dotsPerInch, labelDots } from '../api.js';
