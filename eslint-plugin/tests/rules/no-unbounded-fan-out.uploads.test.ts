import type { MessageId, Options } from '../../src/rules/no-unbounded-fan-out';
import rule from '../../src/rules/no-unbounded-fan-out';
import { createRecommendedRuleTester, fixture } from '../ruleTester';

// multer's middleware in the route's own registration rejects a request carrying more files than
// its `maxCount`: `req.files` after `upload.array('images', 3)` holds at most three. Without a
// count (or with one the rule cannot read), the client decides how many. The uploader is built in
// src/upload.js of tests/fixtures/fan-out-uploads, a package that depends on multer.
const filename = fixture('fan-out-uploads/src/routes.js');
const route = (middleware: string): string => `const express = require('express');
const sharp = require('sharp');
const upload = require('./upload');

const router = express.Router();
router.post('/photos', ${middleware}, async (req, res) => {
  const resized = await Promise.all(req.files.map((file) => sharp(file.path).resize(600).toBuffer()));
  res.json({ count: resized.length });
});

module.exports = router;`;

createRecommendedRuleTester().run<MessageId, Options>('no-unbounded-fan-out (uploads capped by multer)', rule as never, {
  valid: [
    { code: route(`upload.array('images', 3)`), filename },
    { code: route(`upload.fields([{ name: 'front', maxCount: 1 }, { name: 'back', maxCount: 2 }])`), filename },
  ],
  invalid: [
    { code: route(`upload.array('images')`), filename, errors: [{ messageId: 'unboundedFanOut', line: 7 }] },
    { code: route(`upload.fields([{ name: 'front', maxCount: 1 }, { name: 'back' }])`), filename, errors: [{ messageId: 'unboundedFanOut', line: 7 }] },
  ],
});
