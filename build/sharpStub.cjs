// Evident handles text only: transformers.js imports `sharp` for images, which cannot be
// bundled (it crashes at load). This stub stands in for it in the bundles.
module.exports = function sharpUnavailable() {
  throw new Error('Image processing is not available in Evident (text only).');
};
