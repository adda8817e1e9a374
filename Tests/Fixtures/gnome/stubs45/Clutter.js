// Stub of the Clutter namespace, which needs a running Shell or display (for load45.js).
export default {};
