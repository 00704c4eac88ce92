# Installation and the Debian package of one LLVM major, hotpath-tidy-<N>,
# named and laid out like clang-tidy-<N> so that the packages of two majors
# share no file and install side by side:
#
#   /usr/lib/llvm-<N>/bin/hotpath-tidy        the tool, beside clang-tidy: clang
#                                             finds its resource directory
#                                             (<N>'s stddef.h ...) from there
#   /usr/bin/hotpath-tidy-<N>                 a link to it
#   /usr/lib/<multiarch>/hotpath-tidy-<N>/    the module for clang-tidy-<N> --load=
#                                             and the checks it loads
#   /usr/share/hotpath-tidy-<N>/rules/        the rule presets (also compiled in)
#   /usr/share/doc/hotpath-tidy-<N>/          README, docs, copyright, changelog
#   /usr/share/man/man1/hotpath-tidy-<N>.1.gz
#   /usr/share/lintian/overrides/hotpath-tidy-<N>   what lintian reports and why it stays
#
# The command `hotpath-tidy` is an alternative (update-alternatives, from the
# package's postinst): each installed major offers its hotpath-tidy-<N> with
# priority <N>, so the newest major wins unless the administrator chooses.
# `cmake --install build --prefix P` installs the same tree under P, without
# the alternative.
set(HOTPATH_PACKAGE "hotpath-tidy-${HOTPATH_LLVM_MAJOR}")
set(HOTPATH_TOOL_DIR "lib/llvm-${HOTPATH_LLVM_MAJOR}/bin")
# The module's directory: the multiarch one (lib/x86_64-linux-gnu), whatever
# prefix the build was configured for. GNUInstallDirs gives it only for
# /usr, and the test builds, configured for /usr/local, make their package
# with cpack -D CPACK_PACKAGING_INSTALL_PREFIX=/usr (tests/e2e/package-deb.sh).
if(CMAKE_LIBRARY_ARCHITECTURE)
  set(HOTPATH_LIB_DIR "lib/${CMAKE_LIBRARY_ARCHITECTURE}")
else()
  set(HOTPATH_LIB_DIR "${CMAKE_INSTALL_LIBDIR}")
endif()
set(HOTPATH_PKG_OUT "${CMAKE_BINARY_DIR}/packaging")
set(HOTPATH_PACKAGE_RELEASE 1 CACHE STRING "Debian revision of the package (changelog's first entry)")
set(HOTPATH_PACKAGE_MAINTAINER "hotpath-tidy maintainers <hotpath@localhost>" CACHE STRING
    "The package's Maintainer field and changelog signature")
file(MAKE_DIRECTORY "${HOTPATH_PKG_OUT}")

install(TARGETS hotpath-tidy RUNTIME DESTINATION "${HOTPATH_TOOL_DIR}")
file(CREATE_LINK "../${HOTPATH_TOOL_DIR}/hotpath-tidy" "${HOTPATH_PKG_OUT}/${HOTPATH_PACKAGE}" SYMBOLIC)
install(FILES "${HOTPATH_PKG_OUT}/${HOTPATH_PACKAGE}" DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(TARGETS hotpathTidyModule hotpathTidyChecksModule
        LIBRARY DESTINATION "${HOTPATH_LIB_DIR}/${HOTPATH_PACKAGE}")
install(DIRECTORY rules/ DESTINATION "${CMAKE_INSTALL_DATADIR}/${HOTPATH_PACKAGE}/rules"
        FILES_MATCHING PATTERN "*.yaml")
install(FILES README.md DESTINATION "${CMAKE_INSTALL_DOCDIR}")
# The pages one by one: install(DIRECTORY) would leave docs/precision/, which
# has none, as an empty directory (lintian: package-contains-empty-directory).
file(GLOB_RECURSE HOTPATH_DOC_PAGES RELATIVE "${PROJECT_SOURCE_DIR}/docs" CONFIGURE_DEPENDS
     "${PROJECT_SOURCE_DIR}/docs/*.md")
foreach(page ${HOTPATH_DOC_PAGES})
  get_filename_component(dir "${page}" DIRECTORY)
  install(FILES "docs/${page}" DESTINATION "${CMAKE_INSTALL_DOCDIR}/${dir}")
endforeach()

# Debian's files, from the templates in packaging/: the man page and the
# changelog compressed as Debian wants them (gzip -9n: no name, no time).
set(HOTPATH_PACKAGE_VERSION "${PROJECT_VERSION}-${HOTPATH_PACKAGE_RELEASE}")
foreach(f copyright postinst prerm lintian-overrides)
  configure_file("${CMAKE_CURRENT_LIST_DIR}/${f}.in" "${HOTPATH_PKG_OUT}/${f}" @ONLY)
endforeach()
install(FILES "${HOTPATH_PKG_OUT}/lintian-overrides" DESTINATION "${CMAKE_INSTALL_DATADIR}/lintian/overrides"
        RENAME "${HOTPATH_PACKAGE}")
configure_file("${CMAKE_CURRENT_LIST_DIR}/changelog.in" "${HOTPATH_PKG_OUT}/changelog" @ONLY)
configure_file("${CMAKE_CURRENT_LIST_DIR}/hotpath-tidy.1.in" "${HOTPATH_PKG_OUT}/${HOTPATH_PACKAGE}.1" @ONLY)
foreach(f changelog ${HOTPATH_PACKAGE}.1)
  execute_process(COMMAND gzip -9n -c "${HOTPATH_PKG_OUT}/${f}"
                  OUTPUT_FILE "${HOTPATH_PKG_OUT}/${f}.gz" RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "gzip -9n ${HOTPATH_PKG_OUT}/${f} failed: ${rc}")
  endif()
endforeach()
install(FILES "${HOTPATH_PKG_OUT}/copyright" DESTINATION "${CMAKE_INSTALL_DOCDIR}")
install(FILES "${HOTPATH_PKG_OUT}/changelog.gz" DESTINATION "${CMAKE_INSTALL_DOCDIR}"
        RENAME changelog.Debian.gz)
install(FILES "${HOTPATH_PKG_OUT}/${HOTPATH_PACKAGE}.1.gz" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")

# cpack -G DEB in the build directory: hotpath-tidy-<N>_<version>-<release>_<arch>.deb
# (scripts/package.sh). Depends: what dpkg-shlibdeps finds the tool linked
# against (libclang-cpp<N>, libllvm<N>, libc, libstdc++), and clang-tidy-<N>,
# whose host the module needs and which brings <N>'s resource headers
# (libclang-common-<N>-dev) the tool parses with.
set(CPACK_PACKAGE_NAME "${HOTPATH_PACKAGE}")
set(CPACK_PACKAGE_VENDOR "hotpath-tidy")
set(CPACK_PACKAGE_CONTACT "${HOTPATH_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_DEBIAN_PACKAGE_RELEASE "${HOTPATH_PACKAGE_RELEASE}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "clang-tidy checks that take debug checks off hot paths (LLVM ${HOTPATH_LLVM_MAJOR})")
set(CPACK_PACKAGE_DESCRIPTION
    "hotpath-tidy finds the debug and safety checks that cost time on hot paths of C
and C++ code (check functions kept out of line by their reporting, disabled
asserts that still evaluate, empty hooks called on every operation) and
rewrites them. This package is for LLVM ${HOTPATH_LLVM_MAJOR}: hotpath-tidy-${HOTPATH_LLVM_MAJOR},
clang-tidy with the checks built in plus a patch mode for CI (--diff),
profile-driven and inline-remark-driven runs, and the module for
clang-tidy-${HOTPATH_LLVM_MAJOR} --load. It installs beside the package of another major.")
set(CPACK_GENERATOR "DEB")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "clang-tidy-${HOTPATH_LLVM_MAJOR}")
# git for --diff=<rev>, clang for --inline-remarks.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "git, clang-${HOTPATH_LLVM_MAJOR}")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA "${HOTPATH_PKG_OUT}/postinst;${HOTPATH_PKG_OUT}/prerm")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX "${CMAKE_INSTALL_PREFIX}")
include(CPack)
