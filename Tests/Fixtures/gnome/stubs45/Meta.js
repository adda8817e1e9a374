// Stub of the Meta namespace, which needs a running Shell or display (for load45.js).
export default {};
