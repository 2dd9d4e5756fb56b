// `SeededRandom` lives in the floor module `SeededRandomness`, which the host's commands use too
// (`contacts-host generate --seed`) without linking the test doubles; a test that imports this module
// gets it as before, and its documentation is this catalog's (Scripts/build-docs.sh).
@_exported import SeededRandomness
