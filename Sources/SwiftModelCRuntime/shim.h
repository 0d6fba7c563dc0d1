// The one entry point of the Swift runtime SwiftModel calls directly (see
// Sources/ModelCore/Support/WeakReferences.swift). Declared here, with the C calling convention
// the runtime defines it with, because Swift reserves the name to the compiler.
#ifndef SWIFTMODEL_C_RUNTIME_H
#define SWIFTMODEL_C_RUNTIME_H

/// Increments `object`'s strong reference count unless the object has begun to
/// deinitialize; returns `object`, or null when it has. Exported by libswiftCore on every
/// platform (it backs `weak` loads), part of its stable ABI on Apple platforms.
void *_Nullable swift_tryRetain(void *_Nonnull object);

#endif
