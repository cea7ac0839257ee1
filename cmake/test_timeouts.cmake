# A time limit on every CTest test (docs/decisions.md, "Test timeouts"): a test that hangs fails with
# "Timeout" and names itself instead of holding CI until its 90-minute limit. Call
# rigidbench_test_timeouts() at the end of a folder's CMakeLists, after its add_test calls; a test
# with a TIMEOUT of its own keeps it. The limits are about 5x the slowest test of the label under the
# sanitizers (83 s in the ci label, 53 s in fast: `.ci/run` at 6a0b823); Catch2's discovered tests
# get theirs in catch_discover_tests (tests/CMakeLists.txt).
set(RIGIDBENCH_TIMEOUT_FAST 300)
set(RIGIDBENCH_TIMEOUT_CI 900)
set(RIGIDBENCH_TIMEOUT_OTHER 3600)  # on-demand labels (slow, engines on request, long suites)
function(rigidbench_test_timeouts)
  get_property(_tests DIRECTORY PROPERTY TESTS)
  foreach(_t IN LISTS _tests)
    get_test_property(${_t} TIMEOUT _have)
    if(_have)
      continue()
    endif()
    get_test_property(${_t} LABELS _labels)
    if("fast" IN_LIST _labels)
      set(_limit ${RIGIDBENCH_TIMEOUT_FAST})
    elseif("ci" IN_LIST _labels)
      set(_limit ${RIGIDBENCH_TIMEOUT_CI})
    else()
      set(_limit ${RIGIDBENCH_TIMEOUT_OTHER})
    endif()
    set_tests_properties(${_t} PROPERTIES TIMEOUT ${_limit})
  endforeach()
endfunction()
