#ifndef CBUILDINFO_H
#define CBUILDINFO_H

/// The git commit the binary was built from (`git rev-parse --short=12 HEAD`, `-modified` when the
/// tree had changes), or "" when the build did not say (`swift build` alone, a tree without git).
/// Why C: the Makefile writes it as a generated header (`commit.h`, not in git), which a build
/// without the Makefile simply does not find; Swift has no conditional include of a file.
extern const char *const CBuildInfo_commit;

#endif
