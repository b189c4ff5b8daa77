# Qt for MinGW-w64 (scripts/build-qt-mingw.sh) in unity batches: Qt 6.4's own build has no unity
# support, so CMAKE_UNITY_BUILD is set for all of qtbase and this file (CMAKE_PROJECT_INCLUDE)
# leaves out, after the targets exist, what cannot share a translation unit with its neighbours.
# Each file below fails in a batch (a second definition of a file-local name, a macro such as
# `decode` or `UrlRole`, an #undef of qWarning); each is compiled alone, as before. Measured on 2
# cores: 947 build steps became 263, and the Windows plugin's 46 files took 29 CPU s instead of 225.
include_guard(GLOBAL)

function(cudnnsetup_qt_unity_exceptions)
    # C libraries with their own file-local names in every file (FreeType builds per module already),
    # the Vista style, whose five files all define the same helpers, and Qt Network and its Schannel
    # plugin, whose Windows files include windows.h (its `interface` macro breaks the neighbours).
    set_target_properties(BundledFreetype BundledLibpng BundledPcre2 QWindowsVistaStylePlugin
        PROPERTIES UNITY_BUILD OFF)
    foreach(network_target Network QSchannelBackendPlugin)
        if(TARGET ${network_target})
            set_target_properties(${network_target} PROPERTIES UNITY_BUILD OFF)
        endif()
    endforeach()
    set(alone_in
        Core "src/corelib" global/qglobal.cpp global/qlogging.cpp io/qdebug.cpp io/qurlquery.cpp
            text/qlocale.cpp text/qstring.cpp text/qunicodetools.cpp kernel/qmetaobjectbuilder.cpp
            time/qjalalicalendar.cpp time/qhijricalendar.cpp time/qislamiccivilcalendar.cpp
            serialization/qcborstreamwriter.cpp
        Gui "src/gui" image/qpixmapcache.cpp kernel/qplatformintegrationfactory.cpp
            kernel/qplatformthemefactory.cpp kernel/qwindowsysteminterface.cpp text/qtextmarkdownwriter.cpp
            text/windows/qwindowsfontengine.cpp util/qpkmhandler.cpp
        Widgets "src/widgets" accessible/qaccessiblewidgets.cpp dialogs/qfiledialog.cpp
            dialogs/qfontdialog.cpp widgets/qmdiarea.cpp
        QWindowsIntegrationPlugin "src/plugins/platforms/windows" qwindowsmenu.cpp
            qwindowspointerhandler.cpp qwindowswindow.cpp
        Test "src/testlib" qteamcitylogger.cpp)
    set(target "")
    set(folder "")
    foreach(item IN LISTS alone_in)
        if(TARGET ${item})
            set(target ${item})
            set(folder "")
        elseif(folder STREQUAL "")
            set(folder "${CMAKE_SOURCE_DIR}/${item}")
        else()
            set_source_files_properties("${folder}/${item}" TARGET_DIRECTORY ${target}
                PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
        endif()
    endforeach()
endfunction()

cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL cudnnsetup_qt_unity_exceptions)
