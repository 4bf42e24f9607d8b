// Validates one .glb (or .gltf) with the Khronos glTF validator; exits 1 on any error, 2 on a
// usage or I/O problem, 0 otherwise (warnings and infos are printed, not fatal).
// Usage: NODE_PATH=/path/to/node_modules node reference/tests/gltf_validate.js FILE.glb
'use strict';
const fs = require('fs');
const path = require('path');

let validator;
try {
  validator = require('gltf-validator');
} catch (e) {
  console.error('gltf_validate: cannot load the gltf-validator package (set NODE_PATH): ' + e.message);
  process.exit(2);
}

const file = process.argv[2];
if (!file) {
  console.error('usage: node gltf_validate.js FILE.glb');
  process.exit(2);
}

let bytes;
try {
  bytes = fs.readFileSync(file);
} catch (e) {
  console.error('gltf_validate: ' + e.message);
  process.exit(2);
}

validator
  .validateBytes(new Uint8Array(bytes), {
    uri: path.basename(file),
    maxIssues: 0, // report everything
    externalResourceFunction: () => Promise.reject(new Error('external resources are not used')),
  })
  .then((report) => {
    const issues = report.issues;
    for (const m of issues.messages) {
      const severity = ['ERROR', 'WARNING', 'INFO', 'HINT'][m.severity] || String(m.severity);
      console.log(`${severity} ${m.code} ${m.pointer || ''} ${m.message}`);
    }
    console.log(
      `${file}: ${issues.numErrors} errors, ${issues.numWarnings} warnings, ` +
        `${issues.numInfos} infos, ${issues.numHints} hints`);
    process.exit(issues.numErrors > 0 ? 1 : 0);
  })
  .catch((error) => {
    console.error('gltf_validate: validation failed: ' + error);
    process.exit(1);
  });
