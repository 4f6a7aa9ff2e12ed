"""mxmaca_device_image: a device image built by the reference's own mxcc.

    load("//tools/build_defs:device_image.bzl", "mxmaca_device_image")

    mxmaca_device_image(
        name = "test_image",
        src = "testdata/image_kernels.cu",
        out = "test_image.so",
        testonly = True,
    )

runs `mxcc -x maca --offload-device-only -c SRC -o OUT` from the reference
SDK (//reference:sdk), so the image is made by exactly the stages a program's
image is (reference/compiler/design.md, stages 1-8), never by a copy of them.
Tests that load images by hand (the engine's image runtime, the runtime's
image loading and registry) use it.
"""

_SDK = "//reference:sdk"

def mxmaca_device_image(name, src, out = None, copts = [], **kwargs):
    """Declares OUT (default NAME.so), the device image of the MXMACA source SRC.

    Args:
      name: the target's name.
      src: one MXMACA source file.
      out: the image's file name, relative to the package.
      copts: further mxcc options (-D, -I, -O...).
      **kwargs: passed to the genrule (testonly, visibility, ...).
    """
    native.genrule(
        name = name,
        # The SDK is a source, not a tool: it is built for the target
        # configuration, as programs use it, and only once.
        srcs = [src, _SDK],
        outs = [out or name + ".so"],
        cmd = " ".join([
            "driver=;",
            "for f in $(locations %s); do" % _SDK,
            "case $$f in */mxgpu_llvm/bin/mxcc) driver=$$f;; esac;",
            "done;",
            "$$driver -x maca --offload-device-only",
        ] + copts + [
            "-c $(location %s) -o $@" % src,
        ]),
        message = "Building the device image %s with mxcc" % (out or name + ".so"),
        **kwargs
    )
