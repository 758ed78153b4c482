#pragma once
// The style and script of a report page (report_page.css, report_page.js), embedded at build time by
// CMake (report_assets.cpp.in) so that a page needs nothing beside itself.
namespace candor {

extern const char* const kReportStyle;
extern const char* const kReportScript;

}  // namespace candor
