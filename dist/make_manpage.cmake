# Writes the man page stepline.1 from `stepline --help` and `--version`, so
# the page and the help text cannot drift apart: the help text is the one
# source. Run by dist/CMakeLists.txt at build time:
#   cmake -DSTEPLINE=<binary> -DOUT=<stepline.1> -P make_manpage.cmake
execute_process(COMMAND "${STEPLINE}" --help OUTPUT_VARIABLE help RESULT_VARIABLE help_rc)
execute_process(COMMAND "${STEPLINE}" --version OUTPUT_VARIABLE version OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE version_rc)
if(NOT help_rc EQUAL 0 OR NOT version_rc EQUAL 0)
  message(FATAL_ERROR "make_manpage: ${STEPLINE} --help / --version failed")
endif()

# roff: a backslash is an escape, and a line starting with . or ' a request.
string(REPLACE "\\" "\\e" help "${help}")
string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" help "${help}")
string(REGEX REPLACE "-" "\\\\-" help "${help}")
string(REGEX REPLACE "\n$" "" help "${help}")

# The page, verbatim (a bracket argument: no escapes, no variables).
set(page [=[.TH STEPLINE 1 "" "@VERSION@" "User Commands"
.SH NAME
stepline \- a native desktop viewer for ML profiler traces
.SH SYNOPSIS
.B stepline
[\fIFILE\fR|\fIDIR\fR]
.br
.B stepline
\fIcommand\fR [\fIarguments\fR]
.SH DESCRIPTION
Stepline opens TensorFlow/JAX XSpace, PyTorch/Kineto Chrome-trace JSON, Perfetto, Nsight Systems
SQLite and rocprofv3 traces, shows
them on a timeline, and reports where each training step's time went: GPU idle gaps and their
causes, step-time breakdowns, top ops and kernels. Each command prints its own options with
\fB\-\-help\fR (for example \fBstepline report \-\-help\fR).
.PP
The text below is \fBstepline \-\-help\fR:
.PP
.nf
@HELP@
.fi
.SH EXIT STATUS
0 success; 1 the trace could not be loaded or written (the error names the file); 2 bad arguments.
.SH FILES
.TP
.I $XDG_CONFIG_HOME/stepline/settings.ini\fR, \fI$XDG_CONFIG_HOME/stepline/recent.txt
the viewer's layout, window size and picture options, and its recent files
(\fI~/.config/stepline/\fR when XDG_CONFIG_HOME is unset).
.SH SEE ALSO
The Stepline repository: README.md, and docs/cli.md for every command and option.
]=])
string(REPLACE "@VERSION@" "${version}" page "${page}")
string(REPLACE "@HELP@" "${help}" page "${page}")
file(WRITE "${OUT}" "${page}")
