// Shared helpers for barcode drawers (linear and 2D). Lay a symbol out upright in dots, then:
//   const frame = placeSymbol(field, width, height, fieldOrientation(field, params[0]));  // ^FO / ^FT anchor
//   fillFrameRect(raster, frame, u, v, w, h, barcodeInk(field));                           // N/R/I/B handled
//   drawFrameText(raster, frame, centredLine(text, frame, interpretationFont(m, 'N'), above), mode);
// and report data a symbology cannot take with reportUnencodable(env, field, '^BX', message).

export * from './frame.js';
export * from './bars.js';
export * from './interpretation.js';
export * from './field-data.js';
