# Layers the build enforces. Every target sees the source tree
# only through an include root of its own, build/layers/<layer>/, which holds
# a symlink to each header of the folders the layer may use and, for every
# other header, a stub whose #error names the rule. So
#   #include "loaders/load.h"    in ui/      and
#   #include "ui/view_state.h"   in model/
# stop the build with "layer rule: ...". The rule:
#   model <- model/analysis <- ui <- app
#   model <- sqlite <- loaders <- export <- demo <- app
#   model, model/analysis, sqlite <- query <- app
#   app/runs <- app/output <- app/gui, app/mcp <- app/cli <- app (main.cpp)
# A new folder calls stepline_layer() for its target, naming the layers it may
# include; a new header appears in every root at the next configure (the globs
# are CONFIGURE_DEPENDS).
#
#   stepline_layer(<target> <layer> MAY_INCLUDE <layer>...)
# <layer> is a header's folder: "model/analysis" for model/analysis/**,
# "app/<part>" for app/<part>/**, else the first path component (model,
# sqlite, loaders, export, demo, ui, query). A layer always includes itself.

set(STEPLINE_LAYER_RULE "model <- model/analysis <- ui <- app; model <- sqlite <- loaders <- export <- demo <- app; model, model/analysis, sqlite <- query <- app; app/runs <- app/output <- app/gui, app/mcp <- app/cli")

# The layer of a header path relative to the source root.
function(_stepline_header_layer header out_var)
  if(header MATCHES "^model/analysis/")
    set(${out_var} "model/analysis" PARENT_SCOPE)
  elseif(header MATCHES "^app/([^/]+)/")
    set(${out_var} "app/${CMAKE_MATCH_1}" PARENT_SCOPE)
  else()
    string(REGEX MATCH "^[^/]+" first "${header}")
    set(${out_var} "${first}" PARENT_SCOPE)
  endif()
endfunction()

function(stepline_layer target layer)
  cmake_parse_arguments(PARSE_ARGV 2 ARG "" "" "MAY_INCLUDE")
  set(allowed ${layer} ${ARG_MAY_INCLUDE})
  string(REPLACE "/" "_" root_name "${layer}")
  set(root "${PROJECT_BINARY_DIR}/layers/${root_name}")
  file(GLOB_RECURSE headers CONFIGURE_DEPENDS RELATIVE "${PROJECT_SOURCE_DIR}"
       "${PROJECT_SOURCE_DIR}/model/*.h" "${PROJECT_SOURCE_DIR}/loaders/*.h"
       "${PROJECT_SOURCE_DIR}/ui/*.h" "${PROJECT_SOURCE_DIR}/app/*.h" "${PROJECT_SOURCE_DIR}/sqlite/*.h"
       "${PROJECT_SOURCE_DIR}/export/*.h" "${PROJECT_SOURCE_DIR}/demo/*.h"
       "${PROJECT_SOURCE_DIR}/query/*.h")
  list(JOIN allowed "/, " allowed_text)
  foreach(header IN LISTS headers)
    _stepline_header_layer("${header}" header_layer)
    set(dest "${root}/${header}")
    get_filename_component(dest_dir "${dest}" DIRECTORY)
    file(MAKE_DIRECTORY "${dest_dir}")
    if(header_layer IN_LIST allowed)
      if(NOT IS_SYMLINK "${dest}")
        file(REMOVE "${dest}")
        file(CREATE_LINK "${PROJECT_SOURCE_DIR}/${header}" "${dest}" SYMBOLIC)
      endif()
    else()
      if(IS_SYMLINK "${dest}")
        file(REMOVE "${dest}")
      endif()
      # CONFIGURE rewrites only when the text changes, so builds stay incremental.
      file(CONFIGURE OUTPUT "${dest}" CONTENT
           "#error \"layer rule: ${layer}/ code may include ${allowed_text}/ only, not ${header} (${STEPLINE_LAYER_RULE}; docs/architecture.md)\"\n")
    endif()
  endforeach()
  target_include_directories(${target} PRIVATE "${root}")
  # The root as a property, so a test can compile against it (tests/CMakeLists.txt).
  set_property(GLOBAL PROPERTY STEPLINE_LAYER_ROOT_${root_name} "${root}")
endfunction()
