"""Start-up, the main window and the self-test: the composition of the features.

``app`` creates the QApplication and shows the window; ``main_window`` holds the tabs, menus
and status bar and wires the features to each other (the Build tab receives its workload
panel from here); ``lazy_tab`` builds a tab on first show; ``self_test`` checks an install.
"""
