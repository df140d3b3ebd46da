"""Build the qrelkit Python binding: one C extension over libqrelkit's public API.

Offline, with Debian's setuptools and python3-dev only:
    pip install --no-build-isolation ./python

Which libqrelkit is used:
  * QRELKIT_BUILD_DIR=DIR: a CMake build tree (DIR/libqrelkit.so, headers from
    the source tree next to this file); the extension finds it at run time
    through an rpath. `make python` sets this to build/default.
  * otherwise ../build/default when it holds libqrelkit.so (a source checkout);
  * otherwise pkg-config's qrelkit (an installed library, `make install`).
The version is the C library's QK_VERSION.
"""
import os
import re
import shlex
import subprocess

from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(HERE)


def library_flags():
    build = os.environ.get("QRELKIT_BUILD_DIR") or os.path.join(SOURCE, "build", "default")
    build = os.path.abspath(build)
    include = os.path.join(SOURCE, "include")
    if os.path.exists(os.path.join(build, "libqrelkit.so")) and os.path.isdir(include):
        return include, dict(include_dirs=[include], library_dirs=[build], libraries=["qrelkit"],
                             runtime_library_dirs=[build])
    try:
        cflags = subprocess.check_output(["pkg-config", "--cflags", "qrelkit"], text=True)
        libs = subprocess.check_output(["pkg-config", "--libs", "qrelkit"], text=True)
    except (OSError, subprocess.CalledProcessError) as e:
        raise SystemExit("qrelkit: no libqrelkit found: build it (make build) or install it "
                         "(make install), or set QRELKIT_BUILD_DIR") from e
    incs = [f[2:] for f in shlex.split(cflags) if f.startswith("-I")]
    libdirs = [f[2:] for f in shlex.split(libs) if f.startswith("-L")]
    header_dir = incs[0] if incs else "/usr/local/include"
    return header_dir, dict(include_dirs=incs, library_dirs=libdirs, libraries=["qrelkit"],
                            runtime_library_dirs=libdirs)


def c_version(include):
    with open(os.path.join(include, "qrelkit", "core.h"), encoding="utf-8") as f:
        m = re.search(r'#define QK_VERSION "([^"]+)"', f.read())
    if not m:
        raise SystemExit("qrelkit: QK_VERSION not found in qrelkit/core.h")
    return m.group(1)


include, flags = library_flags()
setup(
    name="qrelkit",
    version=c_version(include),
    description="IR evaluation (trec_eval measures, estimators, significance, pooling, crowd "
                "aggregation) over libqrelkit",
    packages=["qrelkit"],
    package_dir={"qrelkit": "qrelkit"},
    ext_modules=[Extension("qrelkit._qrelkit", sources=["src/qrelkit_ext.c"],
                           extra_compile_args=["-std=c11", "-Wall", "-Wextra"], **flags)],
    python_requires=">=3.8",
)
