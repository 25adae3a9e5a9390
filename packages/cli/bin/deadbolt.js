#!/usr/bin/env node
// The `deadbolt` command. It is the built dist/bin.js; this file, committed, is what package.json
// names as the bin, so installing the workspace before the first build (when dist/ is not there
// yet) can still link it.
import '../dist/bin.js';
